// Package search is taflmail's engine opponent: it finds moves for any
// variant the engine plays (engine.Variants() and rules built from OTN
// rules strings), with iterative deepening alpha-beta and principal
// variation search over the engine's trusted Make/Unmake path.
//
// The parts (docs/engine.md explains each and how to measure a change):
//   - search.go: Searcher, Limits, Result; iterative deepening with
//     aspiration windows, principal variation search, reverse futility,
//     null-move pruning (engine.Position.MakeNull), futility pruning and
//     late-move reductions; a quiescence search for tafl's forcing moves
//     (threats.go: king escapes, king captures, captures, the king's
//     double escape threats), one ply more when the opponent threatens to
//     win;
//   - tt.go: the transposition table on the engine's Zobrist keys;
//   - order.go: move ordering (table move, escape, captures via
//     engine.Position.CaptureTargets, killers, king attacks, history);
//   - eval.go: the evaluation, Weights chosen from the variant's rules by
//     DefaultWeights (corner or edge escape, king strength, edge fort,
//     encirclement), never from its name; board.go: the snapshot it reads;
//   - level.go: levels 1–5; advice.go: Resign and AcceptDraw;
//   - score.go: Score, evaluation points or a forced result in plies.
//
// Repetition follows the engine: a ply that repeats a position for the
// third time ends the game there with the variant's outcome (RULES.md
// §1.6.5), so the search never walks into a losing repetition and takes a
// drawing one when it is behind. Scores of positions already seen in the
// game are not taken from or put into the table, since their value
// depends on the history.
//
// A caller runs a search with a budget and plays its move:
//
//	s := search.New(search.Level(5).Options())
//	r, err := s.Search(ctx, pos, search.Level(5).Limits(0)) // 10 s
//	if err == nil {
//		pos.Play(r.Move)
//	}
//
// Search is deterministic under Limits.Depth and Limits.Nodes; it stops
// when ctx is done, so a scheduler can run it on a goroutine of its own and
// cancel it. Imports: the engine and the standard library only.
package search
