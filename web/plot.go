package web

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"

	"github.com/taflmail/taflmail/club"
)

// Plot geometry, in SVG units: the plot area and the margins for the
// axis labels.
const (
	plotW, plotH       = 640, 220
	plotLeft, plotRest = 48, 12
	plotBottom         = 26
)

// ratingPlot draws a player's rating history in one variant as SVG: the
// rating after each rated game joined by a line, a band of ± RD around
// it, a dot per game (its title the date, the opponent and the rating),
// the rating axis in steps of 50 or 100, and the first and last dates.
// title names the plot for screen readers. "" for no history.
func ratingPlot(hist []club.RatingPoint, title string, lang string) template.HTML {
	if len(hist) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, h := range hist {
		lo, hi = math.Min(lo, h.R-h.RD), math.Max(hi, h.R+h.RD)
	}
	step := 50.0
	if hi-lo > 400 {
		step = 100
	}
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < 2*step {
		hi += step
		lo -= step
	}
	t0, t1 := hist[0].End, hist[len(hist)-1].End
	span := t1.Sub(t0).Seconds()
	x := func(i int, t time.Time) float64 {
		w := float64(plotW - plotLeft - plotRest)
		if span <= 0 {
			if len(hist) == 1 {
				return plotLeft + w/2
			}
			return plotLeft + w*float64(i)/float64(len(hist)-1)
		}
		return plotLeft + w*t.Sub(t0).Seconds()/span
	}
	y := func(r float64) float64 {
		h := float64(plotH - plotBottom - plotRest)
		return plotRest + h*(hi-r)/(hi-lo)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" role="img" aria-label="%s">`, plotW, plotH, template.HTMLEscapeString(title))
	for r := lo; r <= hi; r += step {
		fmt.Fprintf(&b, `<path class="axis" d="M%d %.1fH%d"/><text class="ylabel" x="%d" y="%.1f">%.0f</text>`,
			plotLeft, y(r), plotW-plotRest, plotLeft-6, y(r)+4, r)
	}
	// the RD band: up along R+RD, back along R-RD
	b.WriteString(`<path class="band" d="`)
	for i, h := range hist {
		fmt.Fprintf(&b, "%s%.1f %.1f", map[bool]string{true: "M", false: "L"}[i == 0], x(i, h.End), y(h.R+h.RD))
	}
	for i := len(hist) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "L%.1f %.1f", x(i, hist[i].End), y(hist[i].R-hist[i].RD))
	}
	b.WriteString(`Z"/><path class="line" d="`)
	for i, h := range hist {
		fmt.Fprintf(&b, "%s%.1f %.1f", map[bool]string{true: "M", false: "L"}[i == 0], x(i, h.End), y(h.R))
	}
	b.WriteString(`"/>`)
	for i, h := range hist {
		label := fmt.Sprintf("%s: %.0f (RD %.0f)", dayText(lang, h.End), h.R, h.RD)
		if h.Opponent != nil {
			label += " – " + h.Opponent.Name
		}
		fmt.Fprintf(&b, `<circle class="dot" cx="%.1f" cy="%.1f" r="4"><title>%s</title></circle>`, x(i, h.End), y(h.R), template.HTMLEscapeString(label))
	}
	fmt.Fprintf(&b, `<text class="xlabel" x="%d" y="%d">%s</text>`, plotLeft, plotH-6, dayText(lang, t0))
	if len(hist) > 1 {
		fmt.Fprintf(&b, `<text class="xlabel end" x="%d" y="%d">%s</text>`, plotW-plotRest, plotH-6, dayText(lang, t1))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
