package server

import (
	"errors"
	"slices"
	"testing"

	"github.com/taflmail/taflmail/archive"
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
	_, n := m.(newsWatcher)
	_, e := m.(errorTaker)
	return []bool{c, w, a, q, p, h, d, u, s, k, r, n, e}
}

var hookNames = []string{"collector", "plyWatcher", "mailAdder", "quietKeeper", "replyPreparer", "noteHolder", "replyDelayer", "unmailer", "positionWatcher", "proseKeeper", "commandsWatcher", "newsWatcher", "errorTaker"}

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
		"consent":        {"collector", "unmailer", "errorTaker"},
		"tournament":     {"collector", "replyPreparer"},
		"clock":          {"collector"},
		"digest":         {"noteHolder", "newsWatcher"},
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

// recorder is a module with every hook, noting each call in log.
type recorder struct {
	id  string
	log *[]string
	err error  // afterPly's and mails' error
	yes bool   // quietChange's, holds', keepProse's and takeError's answer
	key string // delayReply's key
	why []string
	out []archive.OutboxMail
}

func (r recorder) name() string                      { return r.id }
func (r recorder) note(hook string)                  { *r.log = append(*r.log, r.id+"."+hook) }
func (r recorder) collect(*session, *archive.Change) { r.note("collect") }
func (r recorder) afterPly(*session, *table) error   { r.note("afterPly"); return r.err }
func (r recorder) quietChange(*session, *table) bool { r.note("quiet"); return r.yes }
func (r recorder) beforeReplies(*session)            { r.note("beforeReplies") }
func (r recorder) holds(*session, *note) bool        { r.note("holds"); return r.yes }
func (r recorder) unmailed(*session) []string        { r.note("unmailed"); return r.why }
func (r recorder) positionShown(*session, *table)    { r.note("positionShown") }
func (r recorder) keepProse(*session) bool           { r.note("keepProse"); return r.yes }
func (r recorder) afterCommands(*session)            { r.note("afterCommands") }
func (r recorder) newsAdded(*session, *note)         { r.note("newsAdded") }
func (r recorder) takeError(*session, error) bool    { r.note("takeError"); return r.yes }
func (r recorder) delayReply(*session, *note) (string, string) {
	r.note("delayReply")
	return r.key, r.key + " text"
}
func (r recorder) mails(*session) ([]archive.OutboxMail, error) {
	r.note("mails")
	return r.out, r.err
}

// TestModuleHooksRunInOrder holds the walkers of module.go to the
// registry's order: every hook is asked of the modules in turn, an error
// stops afterPly and mails at that module, and the hooks that answer
// for the session stop at the first module that says yes.
func TestModuleHooksRunInOrder(t *testing.T) {
	saved := modules
	t.Cleanup(func() { modules = saved })
	var log []string
	boom := errors.New("boom")
	a := recorder{id: "a", log: &log, why: []string{"a1"}, out: []archive.OutboxMail{{MessageID: "<a@x>"}}}
	b := recorder{id: "b", log: &log, yes: true, key: "k", why: []string{"b1", "b2"}, out: []archive.OutboxMail{{MessageID: "<b@x>"}}}
	c := recorder{id: "c", log: &log, err: boom, yes: true, key: "later"}
	ss, tb, n := &session{}, &table{}, &note{}
	expect := func(what string, want ...string) {
		t.Helper()
		if !slices.Equal(log, want) {
			t.Errorf("%s called %v, want %v", what, log, want)
		}
		log = nil
	}

	modules = []module{a, b, c}
	ss.collectModules(&archive.Change{})
	expect("collectModules", "a.collect", "b.collect", "c.collect")
	if err := ss.afterPly(tb); !errors.Is(err, boom) {
		t.Errorf("afterPly = %v, want c's error", err)
	}
	expect("afterPly", "a.afterPly", "b.afterPly", "c.afterPly")
	if !ss.quietChange(tb) {
		t.Error("quietChange = false, want b's true")
	}
	expect("quietChange", "a.quiet", "b.quiet")
	if !ss.noteHeld(n) {
		t.Error("noteHeld = false, want b's true")
	}
	expect("noteHeld", "a.holds", "b.holds")
	if key, carry := ss.replyDelay(n); key != "k" || carry != "k text" {
		t.Errorf("replyDelay = %q, %q, want b's k", key, carry)
	}
	expect("replyDelay", "a.delayReply", "b.delayReply")
	if !ss.keepProse() {
		t.Error("keepProse = false, want b's true")
	}
	expect("keepProse", "a.keepProse", "b.keepProse")
	if why := ss.unmailed(); !slices.Equal(why, []string{"a1", "b1", "b2"}) {
		t.Errorf("unmailed = %v, want a's then b's", why)
	}
	expect("unmailed", "a.unmailed", "b.unmailed", "c.unmailed")
	ss.beforeReplies()
	expect("beforeReplies", "a.beforeReplies", "b.beforeReplies", "c.beforeReplies")
	ss.positionShown(tb)
	expect("positionShown", "a.positionShown", "b.positionShown", "c.positionShown")
	ss.afterCommands()
	expect("afterCommands", "a.afterCommands", "b.afterCommands", "c.afterCommands")
	ss.newsAdded(n)
	expect("newsAdded", "a.newsAdded", "b.newsAdded", "c.newsAdded")
	if !ss.takeError(boom) {
		t.Error("takeError = false, want b's true")
	}
	expect("takeError", "a.takeError", "b.takeError")
	if out, err := ss.moduleMails(); !errors.Is(err, boom) || out != nil {
		t.Errorf("moduleMails = %v, %v, want nothing and c's error", out, err)
	}
	expect("moduleMails", "a.mails", "b.mails", "c.mails")

	modules = []module{b, a}
	out, err := ss.moduleMails()
	if err != nil || len(out) != 2 || out[0].MessageID != "<b@x>" || out[1].MessageID != "<a@x>" {
		t.Errorf("moduleMails = %v, %v, want b's mail then a's", out, err)
	}
	expect("moduleMails", "b.mails", "a.mails")
	if err := ss.afterPly(tb); err != nil {
		t.Errorf("afterPly = %v, want nil", err)
	}
	expect("afterPly", "b.afterPly", "a.afterPly")
}

// TestModuleHooksOfTheRegistry: through the real registry, a quiet
// request a handler returns is the consent module's (its reason kept for
// unmailed), any other error is no module's and fails the mail, and the
// news of a ply is counted once, by the digest, in the note it went to.
func TestModuleHooksOfTheRegistry(t *testing.T) {
	ss := &session{}
	if !ss.takeError(&quietRequest{"asked twice"}) {
		t.Error("takeError(quietRequest) = false, want the consent module to take it")
	}
	if why := ss.unmailed(); !slices.Equal(why, []string{"asked twice"}) {
		t.Errorf("unmailed = %v, want the quiet request's reason", why)
	}
	for _, err := range []error{errors.New("store down"), &refusal{key: "err.watch.full"}} {
		if ss.takeError(err) {
			t.Errorf("takeError(%v) = true, want no module to take it", err)
		}
	}
	n := &note{}
	ss.newsAdded(n)
	ss.newsAdded(n)
	if n.routine != 2 {
		t.Errorf("after two news, note.routine = %d, want 2", n.routine)
	}
}
