package engine

// Result says who won a game, or that it is still running.
type Result uint8

const (
	// Ongoing: the game has not ended.
	Ongoing Result = iota
	// AttackersWin: the attackers won.
	AttackersWin
	// DefendersWin: the defenders won.
	DefendersWin
	// Draw: nobody won.
	Draw
)

// String returns "ongoing", "attackers", "defenders" or "draw".
func (r Result) String() string {
	switch r {
	case AttackersWin:
		return "attackers"
	case DefendersWin:
		return "defenders"
	case Draw:
		return "draw"
	}
	return "ongoing"
}

// Winner returns the winning side and true, or false for a draw or an
// ongoing game.
func (r Result) Winner() (Side, bool) {
	switch r {
	case AttackersWin:
		return Attackers, true
	case DefendersWin:
		return Defenders, true
	}
	return 0, false
}

func winFor(s Side) Result {
	if s == Attackers {
		return AttackersWin
	}
	return DefendersWin
}

// Reason says how a game ended (RULES.md §1.6 for the engine's reasons,
// §1.7 for the results by agreement that the server records).
type Reason uint8

const (
	// NoReason: the game is still running.
	NoReason Reason = iota
	// ReasonEscape: the king reached an escape square (§1.6.1).
	ReasonEscape
	// ReasonKingCaptured: the attackers captured the king (§1.6.2).
	ReasonKingCaptured
	// ReasonEdgeFort: the king stands in an unbreakable edge fort (§1.6.3).
	ReasonEdgeFort
	// ReasonEncirclement: no defender can reach the edge (§1.6.4).
	ReasonEncirclement
	// ReasonRepetition: a position occurred for the third time (§1.6.5).
	ReasonRepetition
	// ReasonNoLegalMove: the side to move cannot move (§1.6.6).
	ReasonNoLegalMove
	// ReasonResignation: a player resigned (§1.7; set by the server).
	ReasonResignation
	// ReasonDrawAgreed: both players agreed to a draw (§1.7; set by the server).
	ReasonDrawAgreed
	// ReasonTimeout: a player's clock ran out (§1.7; set by the server).
	ReasonTimeout
)

var reasonNames = [...]string{
	NoReason:           "",
	ReasonEscape:       "escape",
	ReasonKingCaptured: "king captured",
	ReasonEdgeFort:     "edge fort",
	ReasonEncirclement: "encirclement",
	ReasonRepetition:   "repetition",
	ReasonNoLegalMove:  "no legal move",
	ReasonResignation:  "resignation",
	ReasonDrawAgreed:   "draw agreed",
	ReasonTimeout:      "timeout",
}

// String returns the reason in lower-case words, e.g. "king captured", or
// "" for NoReason.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// Outcome is the state of a game after a ply: who won (Result), why
// (Reason), and Ply, the 1-based number of the ply that ended the game
// counted from the position the game started in (0 when a set-up position
// is already decided). An ongoing game has the zero Outcome.
type Outcome struct {
	Result Result
	Reason Reason
	Ply    int
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }
