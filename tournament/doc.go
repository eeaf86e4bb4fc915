// Package tournament is the pure core of correspondence tournaments
// (CORRESPONDENCE.md §6) and ratings (§7): it pairs players, scores
// results, breaks ties, draws crosstables and rates games. It does no
// I/O; the archive stores what it computes and the referee feeds it
// results.
//
// Files: pairing.go (round robins by Berger tables, matches of two games
// with swapped sides, groups seeded by rating in snake order; §6.1–§6.2,
// Decision T1), standings.go (scores, Sonneborn–Berger and the other
// tie-breaks, withdrawals; §6.3–§6.4, Decisions T2 and T3),
// crosstable.go (the plain-text crosstable and ranked list), records.go
// (sections and rated games read from game records; §6.5, §7.4),
// rating.go (Glicko-2 ratings in the order games ended, one per player
// and variant; §7, Decision R1). The Glicko-2 formulas are package
// tournament/glicko2.
//
// Players are named by strings: the mail addresses the referee uses, or
// whatever a record's Attackers and Defenders tags hold. Points are per
// game: a win 1, a draw ½, a loss 0; they and the Sonneborn–Berger scores
// are exact multiples of ½ and ¼, so float64 holds them without rounding.
package tournament
