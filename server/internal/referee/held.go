package referee

import (
	"log/slog"
	"slices"
	"sync"
	"time"
)

// heldBy names the cap that held a reply back, in the log (HeldLog).
type heldBy string

// The caps that hold replies back.
const (
	// NotHeld is the heldBy of a reply no cap held back.
	NotHeld        heldBy = ""
	bySenderCap    heldBy = "sender_cap"    // MaxRepliesPerHour for the sender
	ByDomainBudget heldBy = "domain_budget" // Options.DomainReplies for the sender's domain
	ByJunkBudget   heldBy = "junk_budget"   // Options.JunkReplies for all senders together
	byRefusalCap   heldBy = "refusal_cap"   // Options.ErrorRepliesPerHour refusals to the sender
	byLoopBreaker  heldBy = "loop_breaker"  // loopBreaker, keyed mails that changed nothing
)

// HeldLogEvery is how often at most the referee logs the replies its caps
// held back (issue 18 §2): a flood of mails makes one warning a minute,
// not one per mail.
const HeldLogEvery = time.Minute

// HeldLog counts the replies the caps held back (caps.go) since it last
// logged them, by cap. The count lives in memory only: the archive has
// every held mail with its reason (`taflmail mails --ignored`).
type HeldLog struct {
	mu     sync.Mutex
	since  time.Time // the first reply counted since the last warning
	last   time.Time // when the last warning was logged; zero for never
	counts map[heldBy]int
}

// Note counts one reply held back by cap at now and logs the count when
// it is due (Report).
func (h *HeldLog) Note(log *slog.Logger, by heldBy, now time.Time) {
	if by == NotHeld {
		return
	}
	h.mu.Lock()
	if h.counts == nil {
		h.counts = map[heldBy]int{}
	}
	if len(h.counts) == 0 {
		h.since = now
	}
	h.counts[by]++
	h.mu.Unlock()
	h.Report(log, now)
}

// Report logs, as one warning "replies held back", how many replies each
// cap held back since the last warning, when there are any and the last
// warning is at least HeldLogEvery old (the first one at once). Run calls
// it on every round, so counts left by the end of a flood are logged
// within WaitCap of the minute's end.
func (h *HeldLog) Report(log *slog.Logger, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.counts) == 0 || !h.last.IsZero() && now.Sub(h.last) < HeldLogEvery {
		return
	}
	caps := make([]heldBy, 0, len(h.counts))
	total := 0
	for by, n := range h.counts {
		caps = append(caps, by)
		total += n
	}
	slices.Sort(caps)
	attrs := []any{"count", total, "since", h.since}
	for _, by := range caps {
		attrs = append(attrs, string(by), h.counts[by])
	}
	log.Warn("replies held back", attrs...)
	clear(h.counts)
	h.last = now
}
