package notation

import (
	"reflect"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// TestSameVariant: sameVariant notices a change in any field of a
// variant, nested fields and list elements included, so that the start
// position of a file is never reused for rules changed in place.
func TestSameVariant(t *testing.T) {
	base, _ := engine.Lookup("copenhagen")
	base.Throne.Squares = []engine.Square{engine.SquareAt(5, 5)}
	base.Corners.Squares = []engine.Square{engine.SquareAt(0, 0)}
	var paths []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
			return
		case reflect.Slice:
			if v.Len() == 0 {
				t.Fatalf("%s is empty in the test variant", path)
			}
			walk(v.Index(v.Len()-1), path+"[last]")
			paths = append(paths, path+"[len]")
			return
		}
		paths = append(paths, path)
	}
	walk(reflect.ValueOf(*base), "Variant")
	for _, path := range paths {
		changed := *base
		changed.Start = append([]string(nil), base.Start...)
		changed.Throne.Squares = append([]engine.Square(nil), base.Throne.Squares...)
		changed.Corners.Squares = append([]engine.Square(nil), base.Corners.Squares...)
		if !sameVariant(base, &changed) {
			t.Fatalf("sameVariant of a copy is false")
		}
		perturb(t, reflect.ValueOf(&changed).Elem(), path[len("Variant"):])
		if sameVariant(base, &changed) {
			t.Errorf("sameVariant misses a change of %s", path)
		}
	}
}

// perturb changes the field of v named by path (".Throne.Squares[last]").
func perturb(t *testing.T, v reflect.Value, path string) {
	for path != "" {
		switch {
		case path == "[len]":
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
			return
		case path == "[last]":
			v = v.Index(v.Len() - 1)
			path = ""
			continue
		}
		path = path[1:] // the dot
		name, rest := path, ""
		for i := 0; i < len(path); i++ {
			if path[i] == '.' || path[i] == '[' {
				name, rest = path[:i], path[i:]
				break
			}
		}
		v, path = v.FieldByName(name), rest
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	default:
		t.Fatalf("cannot change a %s", v.Kind())
	}
}

// TestStartCacheFollowsVariant: the games of a CSV file replay from one
// start position, but a variant changed in place after reading is obeyed.
func TestStartCacheFollowsVariant(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	games, err := ReadGames("g.csv", []byte("d1-d2,0,0,Ongoing\nd1-d2,0,0,Ongoing\n"), ReadOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	if r := games[0].Replay(); r.Legal {
		t.Fatalf("d1-d2 is legal in brandubh's start position")
	}
	if games[1].start.position(v) == nil {
		t.Fatalf("the games of a CSV file do not share a start position")
	}
	// Take the attacker off d2 (Start lists the top rank first).
	v.Start = append([]string(nil), v.Start...)
	v.Start[5] = "......."
	if games[0].start.position(v) != nil {
		t.Errorf("the cached start position is used for a changed variant")
	}
	r := games[1].Replay()
	if !r.Legal || r.Final.At(engine.SquareAt(3, 1)) != engine.Attacker {
		t.Errorf("replay under the changed variant: legal %v, %v", r.Legal, r.Err())
	}
}

// TestStartCacheConcurrent: the games of one file may be replayed at the
// same time (run with -race).
func TestStartCacheConcurrent(t *testing.T) {
	games, err := ReadGames("g.csv", []byte("d1-d3,0,0,Ongoing\nh1-h3,0,0,Ongoing\na4-b4,0,0,Ongoing\nk8-j8,0,0,Ongoing\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *Replay)
	for _, g := range games {
		go func() { done <- g.Replay() }()
	}
	for range games {
		if r := <-done; !r.Legal {
			t.Errorf("%v", r.Err())
		}
	}
}
