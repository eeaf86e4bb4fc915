package server

import (
	"slices"
	"testing"
)

// TestModuleRegistry holds the registry to the order docs/architecture.md
// names ("Modules and hooks"): collect writes the clock's timers after
// every other module changed the games, and each hook runs in this order.
// Every registered module must implement at least one hook, or it is
// registered for nothing.
func TestModuleRegistry(t *testing.T) {
	want := []string{"correspondence", "consent", "tournament", "clock"}
	var got []string
	for _, m := range modules {
		got = append(got, m.name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("registry order = %v, want %v", got, want)
	}
	for _, m := range modules {
		hooks := 0
		if _, ok := m.(collector); ok {
			hooks++
		}
		if _, ok := m.(plyWatcher); ok {
			hooks++
		}
		if _, ok := m.(mailAdder); ok {
			hooks++
		}
		if _, ok := m.(quietKeeper); ok {
			hooks++
		}
		if hooks == 0 {
			t.Errorf("module %s implements no hook", m.name())
		}
	}
	// the hooks a feature had before it became a module: losing one
	// would silently drop what the core asked of it
	has := map[string][]bool{ // collector, plyWatcher, mailAdder, quietKeeper
		"correspondence": {true, true, true, true},
		"consent":        {true, false, false, false},
		"tournament":     {true, false, false, false},
		"clock":          {true, false, false, false},
	}
	for _, m := range modules {
		_, c := m.(collector)
		_, w := m.(plyWatcher)
		_, a := m.(mailAdder)
		_, q := m.(quietKeeper)
		if g := []bool{c, w, a, q}; !slices.Equal(g, has[m.name()]) {
			t.Errorf("module %s hooks (collector, plyWatcher, mailAdder, quietKeeper) = %v, want %v", m.name(), g, has[m.name()])
		}
	}
}
