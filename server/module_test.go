package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
)

// hooksOf says which hooks m implements, in the order of hookNames.
func hooksOf(m referee.Module) []bool {
	_, c := m.(referee.Collector)
	_, w := m.(referee.PlyWatcher)
	_, a := m.(referee.MailAdder)
	_, q := m.(referee.QuietKeeper)
	_, p := m.(referee.ReplyPreparer)
	_, h := m.(referee.NoteHolder)
	_, d := m.(referee.ReplyDelayer)
	_, u := m.(referee.Unmailer)
	_, s := m.(referee.PositionWatcher)
	_, k := m.(referee.ProseKeeper)
	_, r := m.(referee.CommandsWatcher)
	_, n := m.(referee.NewsWatcher)
	_, e := m.(referee.ErrorTaker)
	_, g := m.(referee.GameEnder)
	_, dr := m.(referee.DueRunner)
	_, dt := m.(referee.DueTeller)
	_, ot := m.(referee.OverdueTeller)
	_, in := m.(referee.Installer)
	_, cw := m.(referee.CommitWatcher)
	_, bt := m.(referee.BudgetTeller)
	_, st := m.(referee.StartTeller)
	_, ct := m.(referee.ChallengeTaker)
	_, ow := m.(referee.OfferWriter)
	_, bs := m.(referee.BoardShower)
	_, gl := m.(referee.GamesLister)
	_, gt := m.(referee.GameTeller)
	_, sh := m.(referee.SyntaxHinter)
	_, iw := m.(referee.InstantWriter)
	_, wt := m.(referee.WatchTaker)
	_, tt := m.(referee.ThreadTeller)
	_, ut := m.(referee.UnwatchTaker)
	_, tp := m.(referee.TimerPlanner)
	_, ts := m.(referee.TimerStarter)
	_, tw := m.(referee.TimerWaiter)
	_, ww := m.(referee.WorkWaiter)
	_, qt := m.(referee.QueueTeller)
	return []bool{c, w, a, q, p, h, d, u, s, k, r, n, e, g, dr, dt, ot, in, cw, bt, st, ct, ow, bs, gl, gt, sh, iw, wt, tt, ut, tp, ts, tw, ww, qt}
}

var hookNames = []string{"collector", "plyWatcher", "mailAdder", "quietKeeper", "replyPreparer", "noteHolder", "replyDelayer", "unmailer", "positionWatcher", "proseKeeper", "commandsWatcher", "newsWatcher", "errorTaker",
	"gameEnder", "dueRunner", "dueTeller", "overdueTeller", "installer", "commitWatcher", "budgetTeller", "startTeller",
	"challengeTaker", "offerWriter", "boardShower", "gamesLister", "gameTeller", "syntaxHinter", "instantWriter",
	"watchTaker", "threadTeller", "unwatchTaker", "timerPlanner", "timerStarter", "timerWaiter", "workWaiter", "queueTeller"}

// TestModuleRegistry holds the registry to the order docs/architecture.md
// names ("Modules and hooks"): collect writes the public name first, as
// the core did before it was a module, and the clock's timers after
// every other module changed the games; each hook runs in this order.
// Every registered module implements at least one hook (else it is
// registered for nothing), and each keeps the hooks its feature had when
// the core still called it by name: losing one would silently drop what
// the core asked of it.
func TestModuleRegistry(t *testing.T) {
	want := []string{"publicName", "correspondence", "consent", "tournament", "clock", "digest", "engine"}
	var got []string
	for _, m := range modules {
		got = append(got, m.Name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("registry order = %v, want %v", got, want)
	}
	has := map[string][]string{
		"publicName":     {"collector"},
		"correspondence": {"collector", "plyWatcher", "mailAdder", "quietKeeper", "positionWatcher", "proseKeeper", "commandsWatcher", "budgetTeller", "offerWriter", "boardShower"},
		"consent":        {"collector", "unmailer", "errorTaker"},
		"tournament":     {"collector", "replyPreparer", "dueRunner", "dueTeller", "commitWatcher", "budgetTeller", "offerWriter", "gamesLister", "gameTeller", "watchTaker", "threadTeller", "unwatchTaker"},
		"clock":          {"collector", "gameEnder", "dueRunner", "dueTeller", "overdueTeller", "startTeller", "offerWriter", "gameTeller", "syntaxHinter"},
		"digest":         {"noteHolder", "newsWatcher", "dueRunner", "overdueTeller", "budgetTeller", "instantWriter"},
		"engine":         {"replyDelayer", "installer", "challengeTaker", "timerPlanner", "timerStarter", "timerWaiter", "workWaiter", "queueTeller"},
	}
	for _, m := range modules {
		var hooks []string
		for i, ok := range hooksOf(m) {
			if ok {
				hooks = append(hooks, hookNames[i])
			}
		}
		if len(hooks) == 0 {
			t.Errorf("module %s implements no hook", m.Name())
		}
		if !slices.Equal(hooks, has[m.Name()]) {
			t.Errorf("module %s implements %v, want %v", m.Name(), hooks, has[m.Name()])
		}
	}
}

// recorder is a module with every hook, noting each call in log.
type recorder struct {
	id   string
	log  *[]string
	err  error  // afterPly's, mails', offer's, takeChallenge's, takeWatch's and takeUnwatch's error
	yes  bool   // quietChange's, holds', keepProse's, takeError's, takeChallenge's, showBoard's, takeWatch's and takeUnwatch's answer; syntaxHint, instant and threadTarget answer too
	key  string // delayReply's key
	why  []string
	out  []archive.OutboxMail
	due  time.Time     // nextDue's instant (none when zero)
	wait time.Duration // overdueWait's wait (its left is yes)
}

func (r recorder) Name() string                                      { return r.id }
func (r recorder) note(hook string)                                  { *r.log = append(*r.log, r.id+"."+hook) }
func (r recorder) Collect(*referee.Session, *archive.Change)         { r.note("collect") }
func (r recorder) AfterPly(*referee.Session, *referee.Table) error   { r.note("afterPly"); return r.err }
func (r recorder) QuietChange(*referee.Session, *referee.Table) bool { r.note("quiet"); return r.yes }
func (r recorder) BeforeReplies(*referee.Session)                    { r.note("beforeReplies") }
func (r recorder) Holds(*referee.Session, *referee.Note) bool        { r.note("holds"); return r.yes }
func (r recorder) Unmailed(*referee.Session) []string                { r.note("unmailed"); return r.why }
func (r recorder) PositionShown(*referee.Session, *referee.Table)    { r.note("positionShown") }
func (r recorder) KeepProse(*referee.Session) bool                   { r.note("keepProse"); return r.yes }
func (r recorder) AfterCommands(*referee.Session)                    { r.note("afterCommands") }
func (r recorder) NewsAdded(*referee.Session, *referee.Note)         { r.note("newsAdded") }
func (r recorder) TakeError(*referee.Session, error) bool            { r.note("takeError"); return r.yes }
func (r recorder) RunDue(context.Context, *referee.Server) (int, error) {
	r.note("runDue")
	return len(r.why), r.err
}
func (r recorder) NextDue(context.Context, *referee.Server) (time.Time, bool, error) {
	r.note("nextDue")
	return r.due, !r.due.IsZero(), r.err
}
func (r recorder) OverdueWait(context.Context, *referee.Server, time.Time) (time.Duration, bool) {
	r.note("overdueWait")
	return r.wait, r.yes
}
func (r recorder) LineBudget(*referee.Session, grammar.Command) (archive.MailBudget, bool, error) {
	r.note("lineBudget")
	return archive.MailBudget(r.key), r.yes, r.err
}
func (r recorder) StartedTerms(*referee.Session, string, *referee.Table) string {
	r.note("startedTerms")
	return r.key
}
func (r recorder) Install(*referee.Server) { r.note("install") }
func (r recorder) AfterCommit(context.Context, *referee.Server, archive.Change) {
	r.note("afterCommit")
}
func (r recorder) EndBefore(*referee.Session, *referee.Table) (bool, error) {
	r.note("endBefore")
	return r.yes, r.err
}
func (r recorder) DelayReply(*referee.Session, *referee.Note) (string, string) {
	r.note("delayReply")
	return r.key, r.key + " text"
}
func (r recorder) Mails(*referee.Session) ([]archive.OutboxMail, error) {
	r.note("mails")
	return r.out, r.err
}
func (r recorder) TakeChallenge(*referee.Session, *grammar.NewGameCommand, *engine.Variant) (bool, error) {
	r.note("takeChallenge")
	return r.yes, r.err
}
func (r recorder) Offer(*referee.Session, *referee.Table, *grammar.NewGameCommand) (referee.Offer, error) {
	r.note("offer")
	return referee.Offer{Told: r.id}, r.err
}
func (r recorder) ShowBoard(*referee.Session) (bool, error) { r.note("showBoard"); return r.yes, nil }
func (r recorder) PlanTimers(*referee.Table, *clock.State) ([]archive.Timer, bool) {
	r.note("planTimers")
	return []archive.Timer{{Key: r.id}}, r.yes
}
func (r recorder) StartTimer(context.Context, *referee.Server, archive.Timer) bool {
	r.note("startTimer")
	return r.yes
}
func (r recorder) TimersWaiting(*referee.Server) (int, func(archive.Timer) bool) {
	r.note("timersWaiting")
	return len(r.why), func(tm archive.Timer) bool { return r.yes && tm.Key == r.key }
}
func (r recorder) WaitWork(*referee.Server) { r.note("waitWork") }
func (r recorder) Queued(*referee.Server) int {
	r.note("queued")
	return len(r.why)
}
func (r recorder) ListGames(*referee.Session) (string, func(*archive.Game, string) string) {
	r.note("listGames")
	return r.id + " head", func(*archive.Game, string) string { return r.id }
}
func (r recorder) TellGame(*referee.Session, string, *referee.Table) (string, string) {
	r.note("tellGame")
	return r.id, r.id + " section"
}
func (r recorder) SyntaxHint(*referee.Session, referee.CommandLine, *grammar.Error) string {
	r.note("syntaxHint")
	return r.answer()
}
func (r recorder) Instant(*referee.Session, string, time.Time, string) string {
	r.note("instant")
	return r.answer()
}
func (r recorder) TakeWatch(*referee.Session, *grammar.WatchCommand) (bool, error) {
	r.note("takeWatch")
	return r.yes, r.err
}
func (r recorder) ThreadTarget(*referee.Session) string { r.note("threadTarget"); return r.answer() }
func (r recorder) TakeUnwatch(*referee.Session, string, bool) (bool, error) {
	r.note("takeUnwatch")
	return r.yes, r.err
}

// answer is the recorder's text for the hooks that answer with one: its
// id when it says yes, else "".
func (r recorder) answer() string {
	if r.yes {
		return r.id
	}
	return ""
}

// TestModuleHooksRunInOrder holds the walkers of module.go to the
// registry's order: every hook is asked of the modules in turn, an error
// stops afterPly, mails, offers, endBefore, lineBudget, takeUnwatch and
// the scheduler's runDue and nextDue at that module, the hooks that
// answer for the session stop at the first module that says yes (or
// writes a hint or an instant, or names a thread's target; takeWatch,
// as takeChallenge, only at one that took the command), startedTerms
// joins every module's terms in order, runDue counts what each did,
// nextDue takes the earliest instant and overdue the shortest wait unless
// a module left work due; without an answer the core answers: no board
// shown, no hint, the instant in UTC, no watch or unwatch taken, no
// thread's target.
func TestModuleHooksRunInOrder(t *testing.T) {
	saved := referee.Modules
	t.Cleanup(func() { referee.Modules = saved })
	var log []string
	boom := errors.New("boom")
	a := recorder{id: "a", log: &log, why: []string{"a1"}, out: []archive.OutboxMail{{MessageID: "<a@x>"}}}
	b := recorder{id: "b", log: &log, yes: true, key: "k", why: []string{"b1", "b2"}, out: []archive.OutboxMail{{MessageID: "<b@x>"}}}
	c := recorder{id: "c", log: &log, err: boom, yes: true, key: "later"}
	ss, tb, n := &referee.Session{}, &referee.Table{}, &referee.Note{}
	expect := func(what string, want ...string) {
		t.Helper()
		if !slices.Equal(log, want) {
			t.Errorf("%s called %v, want %v", what, log, want)
		}
		log = nil
	}

	referee.Modules = []referee.Module{a, b, c}
	ss.CollectModules(&archive.Change{})
	expect("collectModules", "a.collect", "b.collect", "c.collect")
	if err := ss.AfterPly(tb); !errors.Is(err, boom) {
		t.Errorf("afterPly = %v, want c's error", err)
	}
	expect("afterPly", "a.afterPly", "b.afterPly", "c.afterPly")
	if !ss.QuietChange(tb) {
		t.Error("quietChange = false, want b's true")
	}
	expect("quietChange", "a.quiet", "b.quiet")
	if !ss.NoteHeld(n) {
		t.Error("noteHeld = false, want b's true")
	}
	expect("noteHeld", "a.holds", "b.holds")
	if key, carry := ss.ReplyDelay(n); key != "k" || carry != "k text" {
		t.Errorf("replyDelay = %q, %q, want b's k", key, carry)
	}
	expect("replyDelay", "a.delayReply", "b.delayReply")
	if !ss.KeepProse() {
		t.Error("keepProse = false, want b's true")
	}
	expect("keepProse", "a.keepProse", "b.keepProse")
	if why := ss.Unmailed(); !slices.Equal(why, []string{"a1", "b1", "b2"}) {
		t.Errorf("unmailed = %v, want a's then b's", why)
	}
	expect("unmailed", "a.unmailed", "b.unmailed", "c.unmailed")
	ss.BeforeReplies()
	expect("beforeReplies", "a.beforeReplies", "b.beforeReplies", "c.beforeReplies")
	ss.PositionShown(tb)
	expect("positionShown", "a.positionShown", "b.positionShown", "c.positionShown")
	ss.AfterCommands()
	expect("afterCommands", "a.afterCommands", "b.afterCommands", "c.afterCommands")
	ss.NewsAdded(n)
	expect("newsAdded", "a.newsAdded", "b.newsAdded", "c.newsAdded")
	if !ss.TakeError(boom) {
		t.Error("takeError = false, want b's true")
	}
	expect("takeError", "a.takeError", "b.takeError")
	if ended, err := ss.EndedBefore(tb); !ended || err != nil {
		t.Errorf("endedBefore = %v, %v, want b's true", ended, err)
	}
	expect("endedBefore", "a.endBefore", "b.endBefore")
	if bud, ok, err := ss.ModuleBudget(&grammar.HelpCommand{}); !ok || err != nil || bud != "k" {
		t.Errorf("moduleBudget = %q, %v, %v, want b's", bud, ok, err)
	}
	expect("moduleBudget", "a.lineBudget", "b.lineBudget")
	if terms := ss.StartedTerms(referee.English, tb); terms != "\nk\nlater" {
		t.Errorf("startedTerms = %q, want b's and c's, each on a line of its own", terms)
	}
	expect("startedTerms", "a.startedTerms", "b.startedTerms", "c.startedTerms")
	if out, err := ss.ModuleMails(); !errors.Is(err, boom) || out != nil {
		t.Errorf("moduleMails = %v, %v, want nothing and c's error", out, err)
	}
	expect("moduleMails", "a.mails", "b.mails", "c.mails")

	if took, err := ss.TakeChallenge(nil, nil); !took || err != nil {
		t.Errorf("takeChallenge = %v, %v, want b's true", took, err)
	}
	expect("takeChallenge", "a.takeChallenge", "b.takeChallenge")
	if offers, err := ss.Offers(tb, nil); !errors.Is(err, boom) || offers != nil {
		t.Errorf("offers = %v, %v, want nothing and c's error", offers, err)
	}
	expect("offers", "a.offer", "b.offer", "c.offer")
	if done, err := ss.ShowBoard(); !done || err != nil {
		t.Errorf("showBoard = %v, %v, want b's true", done, err)
	}
	expect("showBoard", "a.showBoard", "b.showBoard")
	if head, label := ss.ListGames(); head != "a head\n\nb head\n\nc head\n\n" || label == nil || label(nil, "") != "a" {
		t.Errorf("listGames = %q and a label, want every head in order and a's label", head)
	}
	expect("listGames", "a.listGames", "b.listGames", "c.listGames")
	if header, sections := ss.TellGame("en", tb); header != "abc" || sections != "a section\n\nb section\n\nc section\n\n" {
		t.Errorf("tellGame = %q, %q, want every module's in order", header, sections)
	}
	expect("tellGame", "a.tellGame", "b.tellGame", "c.tellGame")
	if hint := ss.FeatureHint(referee.CommandLine{}, nil); hint != "b" {
		t.Errorf("featureHint = %q, want b's", hint)
	}
	expect("featureHint", "a.syntaxHint", "b.syntaxHint")
	at := time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)
	if s := ss.Instant("en", at, alice); s != "b" {
		t.Errorf("instant = %q, want b's", s)
	}
	expect("instant", "a.instant", "b.instant")
	if took, err := ss.TakeWatch(nil); !took || err != nil {
		t.Errorf("takeWatch = %v, %v, want b's true", took, err)
	}
	expect("takeWatch", "a.takeWatch", "b.takeWatch")
	if id := ss.ThreadTarget(); id != "b" {
		t.Errorf("threadTarget = %q, want b's", id)
	}
	expect("threadTarget", "a.threadTarget", "b.threadTarget")
	if took, err := ss.TakeUnwatch("K7QX2M", true); !took || err != nil {
		t.Errorf("takeUnwatch = %v, %v, want b's true", took, err)
	}
	expect("takeUnwatch", "a.takeUnwatch", "b.takeUnwatch")

	referee.Modules = []referee.Module{b, a}
	if offers, err := ss.Offers(tb, nil); err != nil || len(offers) != 2 || offers[0].Told != "b" || offers[1].Told != "a" {
		t.Errorf("offers = %v, %v, want b's then a's", offers, err)
	}
	expect("offers", "b.offer", "a.offer")
	out, err := ss.ModuleMails()
	if err != nil || len(out) != 2 || out[0].MessageID != "<b@x>" || out[1].MessageID != "<a@x>" {
		t.Errorf("moduleMails = %v, %v, want b's mail then a's", out, err)
	}
	expect("moduleMails", "b.mails", "a.mails")
	if err := ss.AfterPly(tb); err != nil {
		t.Errorf("afterPly = %v, want nil", err)
	}
	expect("afterPly", "b.afterPly", "a.afterPly")

	referee.Modules = []referee.Module{a}
	if s, want := ss.Instant("en", at, alice), catalog.Instant("en", at); s != want {
		t.Errorf("instant with no module writing it = %q, want the core's %q", s, want)
	}
	if hint := ss.FeatureHint(referee.CommandLine{}, nil); hint != "" {
		t.Errorf("featureHint with no module hinting = %q, want none", hint)
	}
	if done, err := ss.ShowBoard(); done || err != nil {
		t.Errorf("showBoard with no module answering = %v, %v, want false", done, err)
	}
	if took, err := ss.TakeWatch(nil); took || err != nil {
		t.Errorf("takeWatch with no module taking it = %v, %v, want false", took, err)
	}
	if id := ss.ThreadTarget(); id != "" {
		t.Errorf("threadTarget with no module naming one = %q, want none", id)
	}
	if took, err := ss.TakeUnwatch("K7QX2M", true); took || err != nil {
		t.Errorf("takeUnwatch with no module taking it = %v, %v, want false", took, err)
	}
	log = nil

	referee.Modules = []referee.Module{a, c, b}
	if ended, err := ss.EndedBefore(tb); !errors.Is(err, boom) {
		t.Errorf("endedBefore = %v, %v, want c's error", ended, err)
	}
	expect("endedBefore", "a.endBefore", "c.endBefore")
	if _, _, err := ss.ModuleBudget(&grammar.HelpCommand{}); !errors.Is(err, boom) {
		t.Errorf("moduleBudget = %v, want c's error", err)
	}
	expect("moduleBudget", "a.lineBudget", "c.lineBudget")
	if took, err := ss.TakeUnwatch("K7QX2M", true); !took || !errors.Is(err, boom) {
		t.Errorf("takeUnwatch = %v, %v, want c's true and error", took, err)
	}
	expect("takeUnwatch", "a.takeUnwatch", "c.takeUnwatch")
	d := recorder{id: "d", log: &log, err: boom} // fails, takes nothing
	referee.Modules = []referee.Module{a, d, b}
	if took, err := ss.TakeUnwatch("K7QX2M", true); took || !errors.Is(err, boom) {
		t.Errorf("takeUnwatch = %v, %v, want d's error", took, err)
	}
	expect("takeUnwatch", "a.takeUnwatch", "d.takeUnwatch")
	if took, err := ss.TakeWatch(nil); !took || err != nil {
		t.Errorf("takeWatch = %v, %v, want b's true, past d that took nothing", took, err)
	}
	expect("takeWatch", "a.takeWatch", "d.takeWatch", "b.takeWatch")

	// the scheduler's hooks, the Server's
	s, ctx, now := &referee.Server{}, context.Background(), time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a.due, b.due, a.wait = now.Add(time.Hour), now.Add(time.Minute), 20*time.Second
	b.wait, c.wait = 5*time.Second, time.Second
	referee.Modules = []referee.Module{a, b, c}
	if n, err := s.RunDue(ctx); n != 3 || !errors.Is(err, boom) {
		t.Errorf("runDue = %d, %v, want a's 1 and b's 2 things done and c's error", n, err)
	}
	expect("runDue", "a.runDue", "b.runDue", "c.runDue")
	if _, _, err := s.NextDue(ctx); !errors.Is(err, boom) {
		t.Errorf("nextDue = %v, want c's error", err)
	}
	expect("nextDue", "a.nextDue", "b.nextDue", "c.nextDue")
	b.yes = false
	referee.Modules = []referee.Module{a, b}
	if at, ok, err := s.NextDue(ctx); !ok || err != nil || !at.Equal(b.due) {
		t.Errorf("nextDue = %v, %v, %v, want b's earlier instant", at, ok, err)
	}
	expect("nextDue", "a.nextDue", "b.nextDue")
	if wait, left := s.Overdue(ctx, now); left || wait != b.wait {
		t.Errorf("overdue = %v, %v, want b's shorter wait", wait, left)
	}
	expect("overdue", "a.overdueWait", "b.overdueWait")
	referee.Modules = []referee.Module{a, c, b}
	if _, left := s.Overdue(ctx, now); !left {
		t.Error("overdue: c left work due, want left")
	}
	expect("overdue", "a.overdueWait", "c.overdueWait")
	s.Install()
	expect("install", "a.install", "c.install", "b.install")
	s.AfterCommit(ctx, archive.Change{})
	expect("afterCommit", "a.afterCommit", "c.afterCommit", "b.afterCommit")
	timers, alone := referee.PlanTimers(tb, nil)
	var keys []string
	for _, x := range timers {
		keys = append(keys, x.Key)
	}
	if !alone || !slices.Equal(keys, []string{"a", "c", "b"}) {
		t.Errorf("planTimers = %v, %v, want a's, c's and b's timers, alone (c)", timers, alone)
	}
	expect("planTimers", "a.planTimers", "c.planTimers", "b.planTimers")
	if !s.StartTimer(ctx, archive.Timer{}) {
		t.Error("startTimer = false, want c to take it")
	}
	expect("startTimer", "a.startTimer", "c.startTimer")
	waiting, waits := s.TimersWaiting()
	if waiting != 3 || !waits(archive.Timer{Key: "later"}) || waits(archive.Timer{Key: "k"}) {
		t.Errorf("timersWaiting = %d, want 3, and only c's timer waiting", waiting)
	}
	expect("timersWaiting", "a.timersWaiting", "c.timersWaiting", "b.timersWaiting")
	s.WaitWork()
	expect("waitWork", "a.waitWork", "c.waitWork", "b.waitWork")
	if n := s.EngineQueue(); n != 3 {
		t.Errorf("engineQueue = %d, want 3 (a's 1 and b's 2)", n)
	}
	expect("engineQueue", "a.queued", "c.queued", "b.queued")
	referee.Modules = []referee.Module{a, b}
	if s.StartTimer(ctx, archive.Timer{}) {
		t.Error("startTimer = true, want no module to take it")
	}
	expect("startTimer", "a.startTimer", "b.startTimer")
}

// TestModuleHooksOfTheRegistry: through the real registry, a quiet
// request a handler returns is the consent module's (its reason kept for
// unmailed), any other error is no module's and fails the mail, and the
// news of a ply is counted once, by the digest, in the note it went to.
func TestModuleHooksOfTheRegistry(t *testing.T) {
	ss := &referee.Session{}
	if !ss.TakeError(&referee.QuietRequest{Why: "asked twice"}) {
		t.Error("takeError(quietRequest) = false, want the consent module to take it")
	}
	if why := ss.Unmailed(); !slices.Equal(why, []string{"asked twice"}) {
		t.Errorf("unmailed = %v, want the quiet request's reason", why)
	}
	for _, err := range []error{errors.New("store down"), &referee.Refusal{Key: "err.watch.full"}} {
		if ss.TakeError(err) {
			t.Errorf("takeError(%v) = true, want no module to take it", err)
		}
	}
	n := &referee.Note{}
	ss.NewsAdded(n)
	ss.NewsAdded(n)
	if n.Routine != 2 {
		t.Errorf("after two news, note.routine = %d, want 2", n.Routine)
	}
}

// TestModuleStateOf: a module's state is made on the first call of its
// accessor and is the same one after, sessions share none, a session
// that made none reports so (uses), and the slot of one module never
// answers for another type.
func TestModuleStateOf(t *testing.T) {
	a, b := &referee.Session{}, &referee.Session{}
	if a.Uses(correspondence.Module{}) || a.States != nil {
		t.Fatalf("a new session holds states %v, want none", a.States)
	}
	// the correspondence's own state and accessor are its package's
	// (TestCorrOf there): a stand-in holds its slot here
	type corrState struct{ watch []archive.Spectator }
	corrOf := func(ss *referee.Session) *corrState { return referee.StateOf[corrState](ss, correspondence.Module{}) }
	c := corrOf(a)
	if !a.Uses(correspondence.Module{}) || corrOf(a) != c {
		t.Error("stateOf made a state that uses does not see or the next call does not return")
	}
	c.watch = append(c.watch, archive.Spectator{GameID: "K7QX2M", Address: alice})
	if len(corrOf(b).watch) != 0 || corrOf(b) == c {
		t.Error("two sessions share the correspondence state")
	}
	if a.Uses(referee.ConsentModule{}) || a.Uses(tournaments.Module{}) || a.Uses(gameclock.Module{}) {
		t.Errorf("stateOf made the state of other modules too: %v", a.States)
	}
	referee.ConsentOf(a).Quiet = []string{"asked twice"}
	// the tournaments' own state and accessor are their package's
	// (TestTourneyOf there): a stand-in holds its slot here
	type tourneyState struct{ ended bool }
	tourneyOf := func(ss *referee.Session) *tourneyState {
		return referee.StateOf[tourneyState](ss, tournaments.Module{})
	}
	tourneyOf(a).ended = true
	referee.StateOf[struct{ leaves []string }](a, gameclock.Module{}) // the clock's own state and accessor are its package's (TestClockOf there)
	if len(a.States) != 4 || len(corrOf(a).watch) != 1 || len(referee.ConsentOf(a).Quiet) != 1 || !tourneyOf(a).ended {
		t.Errorf("four modules' states in one session: %v", a.States)
	}
	defer func() {
		if recover() == nil {
			t.Error("stateOf of another type for the correspondence module's slot did not panic")
		}
	}()
	referee.StateOf[referee.ConsentState](a, correspondence.Module{})
}

// TestModuleHooksMakeNoState: the hooks the core runs for every session
// make no module state in a session that touched no feature, and
// allocate nothing there.
func TestModuleHooksMakeNoState(t *testing.T) {
	ss, change, tb := &referee.Session{}, &archive.Change{}, &referee.Table{Game: &archive.Game{ID: "K7QX2M"}}
	run := func() {
		ss.CollectModules(change)
		if out, err := ss.ModuleMails(); out != nil || err != nil {
			t.Errorf("moduleMails = %v, %v, want nothing", out, err)
		}
		if ss.QuietChange(tb) {
			t.Error("quietChange = true in a session that stored no message")
		}
		ss.BeforeReplies()
		if why := ss.Unmailed(); why != nil {
			t.Errorf("unmailed = %v, want none", why)
		}
		if header, sections := ss.TellGame("en", tb); header != "" || sections != "" {
			t.Errorf("tellGame of an untimed casual game = %q, %q, want nothing", header, sections)
		}
	}
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("the hooks allocated %v times in a session touching no feature, want 0", n)
	}
	if ss.States != nil {
		t.Errorf("the hooks made states %v", ss.States)
	}
}

// decideOnly decides a mail from from as HandleMail does, replying to
// the last mail to from when reply is set (its key quoted, as
// harness.reply), and commits nothing: it returns the session that
// decided it and the verdict.
func (h *harness) decideOnly(from, body string, reply bool) (*referee.Session, referee.Verdict) {
	h.t.Helper()
	h.seq++
	h.now = h.now.Add(time.Second)
	subject, hdr := "x", ""
	if reply {
		last := h.last(from)
		subject = "Re: " + last.msg.Subject
		body += "\n\n> " + strings.ReplaceAll(last.msg.Text, "\n", "\n> ")
		hdr = "In-Reply-To: <" + last.msg.MessageID + ">\r\n"
	}
	raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <d%d@player.test>\r\n%s"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s", from, subject, h.now.Format(time.RFC1123Z), h.seq, hdr, strings.ReplaceAll(body, "\n", "\r\n"))
	m, err := mailer.Parse(strings.NewReader(raw), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	m.Arrived = h.now
	var seen *referee.Session
	var v referee.Verdict
	_, _, _, err = h.srv.DecideCause(h.ctx(), referee.MailCause(m), referee.Steps{
		Decide: func(ss *referee.Session, change *archive.Change) (referee.Verdict, error) {
			v, _, err := h.srv.Decide(ss, change)
			return v, err
		},
		Decided: func(ss *referee.Session, _ archive.Change, got referee.Verdict) { seen, v = ss, got },
	})
	if err != nil || seen == nil {
		h.t.Fatalf("deciding %q: %v", body, err)
	}
	return seen, v
}

// TestModuleStateMadeByUse: deciding real mails, a session makes the
// state of the modules whose feature the mail touches and of no other:
// none for "help" or "board", the tournament module's for "games" (it
// shows ratings), the clock's for leave, correspondence's for a move
// (its spectators are asked for), correspondence's and consent's for a
// stranger's "watch" (a request to confirm), none for "name" alone (it
// only asks) and the public name module's for a name chosen.
func TestModuleStateMadeByUse(t *testing.T) {
	h := newHarness(t)
	id, _ := startTimed(t, h, "3d+0d")
	cases := []struct {
		from, body string
		reply      bool
		want       []string
	}{
		{carol, "help", false, nil},
		{alice, "games", false, []string{"tournament"}},
		{alice, "board", true, nil},
		{alice, "leave 2026-12-01", true, []string{"clock"}},
		{alice, openings[0], true, []string{"correspondence"}},
		{carol, "watch " + id, false, []string{"correspondence", "consent"}},
		{alice, "name", false, nil},
		{alice, "name Ada Lovelace", true, []string{"publicName"}},
	}
	for _, c := range cases {
		ss, v := h.decideOnly(c.from, c.body, c.reply)
		if v != referee.CommitReplies {
			t.Errorf("%q was decided %v, want answered (the hooks ran)", c.body, v)
		}
		var got []string
		for _, m := range modules {
			if ss.Uses(m) {
				got = append(got, m.Name())
			}
		}
		if !slices.Equal(got, c.want) || len(ss.States) != len(c.want) {
			t.Errorf("%q made the states of %v (%d slots), want %v", c.body, got, len(ss.States), c.want)
		}
	}
}

// TestPublicNameCollected: the change of a mail holds the sender's public
// name exactly when the mail chose one with its key: the name chosen, ""
// for "name -", and no PublicNames at all for "name" alone, a name
// refused or one asked without the key.
func TestPublicNameCollected(t *testing.T) {
	h := newHarness(t)
	startGame(t, h, "brandubh", "")
	cases := []struct {
		from, body string
		reply      bool
		want       map[string]string
	}{
		{alice, "name", false, nil},
		{alice, "name Ada Lovelace", false, nil}, // no key
		{alice, "name  Ada   Lovelace", true, map[string]string{alice: "Ada Lovelace"}},
		{alice, "name -", true, map[string]string{alice: ""}},
		{bob, "name A", true, nil}, // too short
		{bob, "name Bob B\nboard", true, map[string]string{bob: "Bob B"}},
	}
	for _, c := range cases {
		ss, _ := h.decideOnly(c.from, c.body, c.reply)
		var change archive.Change
		ss.Collect(&change)
		names, _ := archive.WriteOf[archive.PublicNames](&change)
		if !maps.Equal(names, c.want) || (c.want == nil) != (names == nil) {
			t.Errorf("%q collected PublicNames %v, want %v", c.body, names, c.want)
		}
	}
}
