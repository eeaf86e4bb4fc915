// Package engine implements the rules of the Tafl board games: positions,
// legal moves, custodial and shieldwall captures, king capture, game end
// (escape, king captured, edge fort, encirclement, repetition, no legal move),
// Zobrist keys and perft.
//
// The rules contract is ../shared/RULES.md of the project; section numbers in
// doc comments (§1.4, §1.6.3, …) refer to it, and the Decisions it records
// (F1, H1, S1, R1, E1, V1–V3) are cited where they are implemented. Every rule
// set is data: a [Variant] value. The engine has no variant names in its code
// paths, does no I/O and parses no text; the notation package turns records
// and OTN strings into engine values.
//
// Coordinates: a [Square] names a file (0 = a, left) and a rank (0 = rank 1,
// bottom). Boards are square, 5×5 up to 19×19. A ply is one side's move; the
// engine counts plies, not move pairs.
//
// Two ways to play a move:
//   - checked: [Position.Play] validates the move and returns an
//     [*IllegalMoveError] that says why a move is illegal;
//   - trusted: [Position.Make] and [Position.Unmake] change the position in
//     place without allocation. Their behaviour is undefined for a move that
//     [Position.LegalMoves] did not produce for this position; perft and
//     search use them.
package engine
