package picture

import (
	"io"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// BenchmarkWrite draws the golden cases (imgCases) as SVG and as PNG, so
// that a change of drawing code can be timed (docs/performance.md).
func BenchmarkWrite(b *testing.B) {
	for _, format := range []struct {
		name  string
		write func(io.Writer, *engine.Position, ...notation.DiagramOption) error
	}{{"svg", WriteSVG}, {"png", WritePNG}} {
		for _, c := range imgCases {
			p, opts := c.build(b)
			b.Run(format.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := format.write(io.Discard, p, opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
