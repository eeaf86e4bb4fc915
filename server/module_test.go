package server

import (
	"slices"
	"testing"
)

// hooksOf says which hooks m implements, in the order of hookNames.
func hooksOf(m module) []bool {
	_, c := m.(collector)
	_, w := m.(plyWatcher)
	_, a := m.(mailAdder)
	_, q := m.(quietKeeper)
	_, p := m.(replyPreparer)
	_, h := m.(noteHolder)
	_, d := m.(replyDelayer)
	_, u := m.(unmailer)
	_, s := m.(positionWatcher)
	_, k := m.(proseKeeper)
	_, r := m.(commandsWatcher)
	return []bool{c, w, a, q, p, h, d, u, s, k, r}
}

var hookNames = []string{"collector", "plyWatcher", "mailAdder", "quietKeeper", "replyPreparer", "noteHolder", "replyDelayer", "unmailer", "positionWatcher", "proseKeeper", "commandsWatcher"}

// TestModuleRegistry holds the registry to the order docs/architecture.md
// names ("Modules and hooks"): collect writes the clock's timers after
// every other module changed the games, and each hook runs in this order.
// Every registered module implements at least one hook (else it is
// registered for nothing), and each keeps the hooks its feature had when
// the core still called it by name: losing one would silently drop what
// the core asked of it.
func TestModuleRegistry(t *testing.T) {
	want := []string{"correspondence", "consent", "tournament", "clock", "digest", "engine"}
	var got []string
	for _, m := range modules {
		got = append(got, m.name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("registry order = %v, want %v", got, want)
	}
	has := map[string][]string{
		"correspondence": {"collector", "plyWatcher", "mailAdder", "quietKeeper", "positionWatcher", "proseKeeper", "commandsWatcher"},
		"consent":        {"collector", "unmailer"},
		"tournament":     {"collector", "replyPreparer"},
		"clock":          {"collector"},
		"digest":         {"noteHolder"},
		"engine":         {"replyDelayer"},
	}
	for _, m := range modules {
		var hooks []string
		for i, ok := range hooksOf(m) {
			if ok {
				hooks = append(hooks, hookNames[i])
			}
		}
		if len(hooks) == 0 {
			t.Errorf("module %s implements no hook", m.name())
		}
		if !slices.Equal(hooks, has[m.name()]) {
			t.Errorf("module %s implements %v, want %v", m.name(), hooks, has[m.name()])
		}
	}
}
