package notation

import (
	"os"
	"reflect"
	"testing"

	"github.com/taflmail/taflmail/grammar"
)

// corpusDir is shared/records, the real games, relative to this package.
const corpusDir = "../../shared/records"

// requireCorpus skips the test when shared/records is absent, except
// under CI=true, where its absence is a failure.
func requireCorpus(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is not readable: %v", corpusDir, err)
		}
		t.Skipf("skipping: %s not found (the shared corpus lives beside the repository): %v", corpusDir, err)
	}
}

var positionType = reflect.TypeOf(grammar.Position{})

// stripPositions zeroes every grammar.Position reachable from v (a pointer),
// so that syntax trees can be compared without positions.
func stripPositions(v any) { stripValue(reflect.ValueOf(v)) }

func stripValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripValue(v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stripValue(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == positionType {
			if v.CanSet() {
				v.Set(reflect.Zero(positionType))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stripValue(v.Field(i))
			}
		}
	}
}

// equalAST compares two syntax trees.
func equalAST(a, b any) bool { return reflect.DeepEqual(a, b) }
