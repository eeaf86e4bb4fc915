// Package e2e holds taflmail's end-to-end tests and benchmarks: the
// referee (package server with a real archive) and scripted players, each
// with an IMAP inbox and an SMTP sender of their own, exchanging real mail.
//
// The tests run against the in-process mail system of package
// mailer/devstack on every `go test`, and against Dovecot and Postfix when
// the MAILSTACK_* environment of scripts/mailstack-up.sh is set (they skip
// without it, and fail instead when CI=true). They stop and restart the
// referee in the middle of a game and check that no move, mail or reply is
// lost or doubled, also when the stop comes while SMTP is answering a
// reply (TestGameByMailStopDuringReply) or IMAP fails as a handled mail is
// moved (TestGameByMailDoneFails).
//
// TestKillStorm (Linux) kills the real `taflmail serve` binary with
// SIGKILL at random points, at least 100 times (-kills N or
// TAFLMAIL_KILLS=N for more), while timed games, reminders, time-outs,
// moves sent just before a deadline and engine games go on through
// devstack, some of it under a busy loop on every core, and then checks
// the archive and every mailbox: every ply once, every move that arrived
// in time played, no reminder or engine ply twice, no reply lost
// (docs/reliability.md, "Killed for real").
//
// The benchmarks measure mails per second through the whole loop
// (BenchmarkMailLoop) and, when TAFLMAIL_BENCH_RSS=1, the resident memory
// of `taflmail serve` over an archive of 10,000 games
// (BenchmarkServeRSS); docs/performance.md ("Mail loop") has the commands
// and the figures.
//
// The package has no non-test code besides this comment.
package e2e
