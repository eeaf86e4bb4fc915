package engine

import (
	"fmt"
	"sort"
)

// Start positions of RULES.md §2, rank 11 (or 9, 7) first.
var (
	// startA is the T-diamond of Copenhagen, Fetlar and Vingólf (RULES.md §2, A).
	startA = []string{
		"...ttttt...",
		".....t.....",
		"...........",
		"t....T....t",
		"t...TTT...t",
		"tt.TTKTT.tt",
		"t...TTT...t",
		"t....T....t",
		"...........",
		".....t.....",
		"...ttttt...",
	}
	// startB is the bell diamond of Historical Hnefatafl (RULES.md §2, B).
	startB = []string{
		"....ttt....",
		"....t.t....",
		".....t.....",
		".....T.....",
		"tt..TTT..tt",
		"t.tTTKTTt.t",
		"tt..TTT..tt",
		".....T.....",
		".....t.....",
		"....t.t....",
		"....ttt....",
	}
	// startC is Tablut's cross (RULES.md §2, C).
	startC = []string{
		"...ttt...",
		"....t....",
		"....T....",
		"t...T...t",
		"ttTTKTTtt",
		"t...T...t",
		"....T....",
		"....t....",
		"...ttt...",
	}
	// startD is Brandubh's cross (RULES.md §2, D).
	startD = []string{
		"...t...",
		"...t...",
		"...T...",
		"ttTKTtt",
		"...T...",
		"...t...",
		"...t...",
	}
)

// Square rules shared by most variants (RULES.md §2 table).
var (
	// throneCommon: only the king stops, all pass while empty; hostile to
	// attackers always, to defenders (and for king capture) when empty.
	throneCommon = SquareRule{
		Present:         true,
		Stop:            OnlyKing,
		Pass:            AllPieces,
		HostileEmpty:    AllPieces,
		HostileOccupied: AttackerOnly,
	}
	// cornersCommon: only the king stops; hostile to every piece.
	cornersCommon = SquareRule{
		Present:      true,
		Stop:         OnlyKing,
		Pass:         NoPieces,
		HostileEmpty: AllPieces,
	}
)

func copenhagen() Variant {
	return Variant{
		Name:    "copenhagen",
		Title:   "Copenhagen Hnefatafl 11×11",
		Summary: "tournament standard: corner escape, strong armed king safe on the edge, shieldwall, edge fort, encirclement",
		Source:  "seeds 002, 004, 000; RULES.md §2 Copenhagen",
		Tier:    1,
		Size:    11, Start: startA, FirstSide: Attackers,
		Escape: EscapeCorners, KingArms: KingArmed,
		KingCapture: CaptureStrong, KingEdge: EdgeNoCapture,
		Throne: throneCommon, Corners: cornersCommon,
		Shieldwall: true, ShieldwallCorners: true,
		EdgeFort: true, Encirclement: true,
		Repetition: RepetitionAttackersWin, NoMove: NoMoveLoses,
	}
}

func builtins() []Variant {
	cph := copenhagen()

	fetlar := cph
	fetlar.Name, fetlar.Title = "fetlar", "Fetlar Hnefatafl 11×11"
	fetlar.Summary = "corner escape, strong armed king safe on the edge; no shieldwall, fort or encirclement; repetition and no move draw"
	fetlar.Source = "seed 000; RULES.md §2 Fetlar, Decision F1"
	fetlar.Shieldwall, fetlar.ShieldwallCorners, fetlar.EdgeFort, fetlar.Encirclement = false, false, false, false
	fetlar.Repetition, fetlar.NoMove = RepetitionDraw, NoMoveDraw

	historical := cph
	historical.Name, historical.Title = "historical", "Historical Hnefatafl 11×11 (edge escape)"
	historical.Summary = "edge escape, no corners, armed king strong only on and beside the throne; repetition loses for its starter"
	historical.Source = "seed 001; RULES.md §2 Historical, Decision H1"
	historical.Start = startB
	historical.Escape = EscapeEdge
	historical.KingCapture = CaptureStrongNearThrone
	historical.Corners = SquareRule{}
	historical.Shieldwall, historical.ShieldwallCorners, historical.EdgeFort = false, false, false
	historical.Repetition = RepetitionSideToMoveLoses

	vingolf := cph
	vingolf.Name, vingolf.Title = "vingolf", "Vingólf Hnefatafl 11×11"
	vingolf.Summary = "Copenhagen simplified: no shieldwall or fort, king captured by three on the edge, throne hostile only to the king"
	vingolf.Source = "seed 003; RULES.md §2 Vingólf, Decisions V1, V2, V3"
	vingolf.KingEdge = EdgeThreeSides
	vingolf.Throne = SquareRule{Present: true, Stop: OnlyKing, Pass: AllPieces, HostileEmpty: OnlyKing}
	vingolf.Shieldwall, vingolf.ShieldwallCorners, vingolf.EdgeFort = false, false, false

	tablut := historical
	tablut.Name, tablut.Title = "tablut", "Tablut 9×9 (Linnaeus, as reconstructed by Aage Nielsen)"
	tablut.Summary = "edge escape, no corners, armed king strong only on and beside the throne"
	tablut.Source = "seeds 000, 001 §7, 003; RULES.md §2 Tablut"
	tablut.Size, tablut.Start = 9, startC
	tablut.Repetition = RepetitionAttackersWin

	brandubh := cph
	brandubh.Name, brandubh.Title = "brandubh", "Brandubh 7×7 (Federation Brandubh)"
	brandubh.Summary = "corner escape, armed king strong only on and beside the throne, weak elsewhere"
	brandubh.Source = "records/brandubh.csv corpus; RULES.md §2 Brandubh"
	brandubh.Size, brandubh.Start = 7, startD
	brandubh.KingCapture = CaptureStrongNearThrone
	brandubh.Shieldwall, brandubh.ShieldwallCorners, brandubh.EdgeFort = false, false, false

	out := []Variant{cph, fetlar, historical, vingolf, tablut, brandubh}
	return append(out, tier2()...)
}

var registry = func() map[string]Variant {
	m := map[string]Variant{}
	for _, v := range builtins() {
		if err := v.Validate(); err != nil {
			panic(err) // a broken built-in is a programming error caught by every test
		}
		if _, dup := m[v.Name]; dup {
			panic(fmt.Sprintf("engine: built-in variant %q defined twice", v.Name))
		}
		m[v.Name] = v
	}
	return m
}()

// Lookup returns a copy of the built-in variant with the given name (as in
// the CLI and mail, e.g. "copenhagen") and whether it exists.
func Lookup(name string) (*Variant, bool) {
	v, ok := registry[name]
	if !ok {
		return nil, false
	}
	v.Start = append([]string(nil), v.Start...)
	return &v, true
}

// Variants returns copies of every built-in variant, tier 1 first, then by
// name.
func Variants() []*Variant {
	out := make([]*Variant, 0, len(registry))
	for _, v := range registry {
		v.Start = append([]string(nil), v.Start...)
		out = append(out, &v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Tier != out[j].Tier {
			return out[i].Tier < out[j].Tier
		}
		return tierOneOrder(out[i].Name) < tierOneOrder(out[j].Name) ||
			tierOneOrder(out[i].Name) == tierOneOrder(out[j].Name) && out[i].Name < out[j].Name
	})
	return out
}

// tierOneOrder keeps the tier-1 variants in the order of RULES.md §2.
func tierOneOrder(name string) int {
	for i, n := range []string{"copenhagen", "fetlar", "historical", "vingolf", "tablut", "brandubh"} {
		if n == name {
			return i
		}
	}
	return 99
}
