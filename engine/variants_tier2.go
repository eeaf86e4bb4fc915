package engine

// Tier-2 built-in variants (RULES.md §2, "Tier 2"): the same engine, data
// only. Every value below is a complete rule set written out field by field,
// so that a reader can compare two variants row by row; docs/variants.md
// gives the source of each field and the decisions taken where the sources
// are silent (L1, A1, T1, S2, C2, F2, E2 there).
//
// Start positions are written rank Size first, down to rank 1, as
// Variant.Start requires; every one of them is symmetric about both axes and
// both diagonals, so reading order does not matter.
var (
	// startSerif13 is the 13×13 serif cross (32 + 16 + king): the Tablut /
	// Sea Battle 9×9 cross (start C) with longer arms. Layout listed as
	// "serif cross 13" in OpenTafl's playtaflonline layout table.
	startSerif13 = []string{
		"...ttttttt...",
		"......t......",
		"......T......",
		"t.....T.....t",
		"t.....T.....t",
		"t.....T.....t",
		"ttTTTTKTTTTtt",
		"t.....T.....t",
		"t.....T.....t",
		"t.....T.....t",
		"......T......",
		"......t......",
		"...ttttttt...",
	}
	// startParlett13 is the 13×13 layout from Parlett's Oxford History of
	// Board Games (32 + 16 + king), listed as "Parlett" in OpenTafl's
	// playtaflonline layout table.
	startParlett13 = []string{
		"....ttttt....",
		".....t.t.....",
		"......t......",
		"......T......",
		"t...T...T...t",
		"tt...TTT...tt",
		"t.tT.TKT.Tt.t",
		"tt...TTT...tt",
		"t...T...T...t",
		"......T......",
		"......t......",
		".....t.t.....",
		"....ttttt....",
	}
	// startAlea is the 19×19 Alea Evangelii layout (48 + 24 + king) as
	// OpenTafl ships it in its external rules file; the manuscript's
	// special pieces are ordinary pieces there already.
	startAlea = []string{
		"..t..t.......t..t..",
		"...................",
		"t....t.......t....t",
		".......t.t.t.......",
		"......t.T.T.t......",
		"t.t..t.......t..t.t",
		"....t....T....t....",
		"...t....T.T....t...",
		"....T..T.T.T..T....",
		"...t..T.TKT.T..t...",
		"....T..T.T.T..T....",
		"...t....T.T....t...",
		"....t....T....t....",
		"t.t..t.......t..t.t",
		"......t.T.T.t......",
		".......t.t.t.......",
		"t....t.......t....t",
		"...................",
		"..t..t.......t..t..",
	}
)

// tier2 returns the tier-2 built-in variants (RULES.md §2, "Tier 2"), in no
// particular order (Variants sorts them by name).
func tier2() []Variant {
	cph13 := copenhagen()
	cph13.Name, cph13.Title = "copenhagen13", "Copenhagen Hnefatafl 13×13"
	cph13.Summary = "Copenhagen rules unchanged on a 13×13 board (Parlett layout, 32 + 16 + king)"
	cph13.Source = "seeds 002, 004, 000 and RULES.md §2 Copenhagen for the rules; layout: Parlett 13×13 as listed in OpenTafl's playtaflonline layout table (Decision C2)"
	cph13.Tier = 2
	cph13.Size, cph13.Start = 13, startParlett13

	return []Variant{
		{
			Name:    "linnaeus",
			Title:   "Linnaeus Tablut 9×9 (strong king, edge escape)",
			Summary: "Tablut with the king captured only on four sides (three and the empty throne beside it), edge escape",
			Source:  "seed 000 (Allgemeine Regeln: four attackers, or three and the Konakis; edge escape; a side without moves loses); seed 003 §2 (strength from the 1811 translation); RULES.md §2 Tablut note",
			Tier:    2,
			Size:    9, Start: startC, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingArmed,
			KingCapture: CaptureStrong, KingEdge: EdgeNoCapture,
			Throne: throneCommon, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionAttackersWin, NoMove: NoMoveLoses,
		},
		{
			Name:    "legacy",
			Title:   "Legacy Hnefatafl 11×11 (unarmed king, corner escape)",
			Summary: "Historical Hnefatafl with an unarmed king who must reach a corner; corners king-only and hostile to every piece",
			Source:  "seed 001 §7 (Fellhuhn app's Legacy: Historical without the armed king, corner instead of edge escape); RULES.md §2 tier 2, Decisions H1 and L1",
			Tier:    2,
			Size:    11, Start: startB, FirstSide: Attackers,
			Escape: EscapeCorners, KingArms: KingUnarmed,
			KingCapture: CaptureStrongNearThrone, KingEdge: EdgeNoCapture,
			Throne: throneCommon, Corners: cornersCommon,
			Encirclement: true,
			Repetition:   RepetitionSideToMoveLoses, NoMove: NoMoveLoses,
		},
		{
			Name:    "tawlbwrdd",
			Title:   "Tawlbwrdd 11×11 (OpenTafl rules)",
			Summary: "bell layout, no restricted squares, armed king captured on two sides, edge escape, repetition draws",
			Source:  "OpenTafl built-in Tawlbwrdd 11×11 (layout and rules); seed 001 §7 names it; Decision T1",
			Tier:    2,
			Size:    11, Start: startB, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingArmed,
			KingCapture: CaptureWeak, KingEdge: EdgeNoCapture,
			Throne: SquareRule{}, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionDraw, NoMove: NoMoveLoses,
		},
		{
			Name:    "ardri",
			Title:   "Ard Ri 7×7 (Historical rules, no throne)",
			Summary: "Historical Hnefatafl on 7×7 without a throne: no restricted squares, armed king captured on two sides, edge escape",
			Source:  "seed 001 §2, §7 (Nielsen's Historical Ard Ri); aagenielsen.dk historical rules 3a (no throne); layout of OpenTafl's H.H. Ard Ri record; Decisions A1, H1",
			Tier:    2,
			Size:    7, Start: startD, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingArmed,
			KingCapture: CaptureWeak, KingEdge: EdgeNoCapture,
			Throne: SquareRule{}, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionSideToMoveLoses, NoMove: NoMoveLoses,
		},
		{
			Name:    "seabattle",
			Title:   "Sea Battle Tafl 9×9",
			Summary: "open sea: no restricted squares, unarmed king (cargo ship) captured on four sides, edge escape",
			Source:  "aagenielsen.dk Sea Battle rules 1-7 (OpenTafl's Sea Battle 9×9 has the same board and pieces); Decision S2",
			Tier:    2,
			Size:    9, Start: startC, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingUnarmed,
			KingCapture: CaptureStrong, KingEdge: EdgeNoCapture,
			Throne: SquareRule{}, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionAttackersWin, NoMove: NoMoveLoses,
		},
		{
			Name:    "seabattle13",
			Title:   "Sea Battle Tafl 13×13",
			Summary: "Sea Battle rules on 13×13 (serif cross, 32 + 16 + king)",
			Source:  "aagenielsen.dk Sea Battle rules (sizes 9 to 15); layout: 13×13 serif cross of OpenTafl's playtaflonline layout table, not checked against Nielsen's 13×13 diagram; Decision S2",
			Tier:    2,
			Size:    13, Start: startSerif13, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingUnarmed,
			KingCapture: CaptureStrong, KingEdge: EdgeNoCapture,
			Throne: SquareRule{}, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionAttackersWin, NoMove: NoMoveLoses,
		},
		cph13,
		{
			Name:    "foteviken",
			Title:   "Foteviken Tablut 9×9 (approximation)",
			Summary: "APPROXIMATION: unarmed king strong on and beside a throne nobody may cross, edge escape; the attackers' base camps are not modelled and the king may re-enter the throne",
			Source:  "OpenTafl built-in Foteviken Tablut (layout, rules; the king of its first version, 22eb9e5: OpenTafl's king is armed and strong everywhere since April 2016); approximated, see Decision F2 in docs/variants.md",
			Tier:    2,
			Size:    9, Start: startC, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingUnarmed,
			KingCapture: CaptureStrongNearThrone, KingEdge: EdgeNoCapture,
			Throne: SquareRule{
				Present:         true,
				Stop:            OnlyKing, // OpenTafl: nobody, not even the king; see F2
				Pass:            NoPieces,
				HostileEmpty:    OnlyKing,
				HostileOccupied: NoPieces,
			},
			Corners:      SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionDraw, NoMove: NoMoveLoses,
		},
		{
			Name:    "alea",
			Title:   "Alea Evangelii 19×19 (Tablut rules, plain pieces)",
			Summary: "subset: the 19×19 layout with plain pieces under Tablut rules (edge escape, throne, armed king strong only on and beside it); no special pieces or squares",
			Source:  "layout: OpenTafl's Alea Evangelii rules string; rules: Tablut rules as Aage Nielsen tried them on 19×19 (cyningstan.com, 5 March 2014); Decision E2",
			Tier:    2,
			Size:    19, Start: startAlea, FirstSide: Attackers,
			Escape: EscapeEdge, KingArms: KingArmed,
			KingCapture: CaptureStrongNearThrone, KingEdge: EdgeNoCapture,
			Throne: throneCommon, Corners: SquareRule{},
			Encirclement: true,
			Repetition:   RepetitionAttackersWin, NoMove: NoMoveLoses,
		},
	}
}
