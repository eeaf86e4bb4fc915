package archive

import "sync/atomic"

// commitCount counts the write transactions a Store committed.
type commitCount struct{ n atomic.Int64 }

func (c *commitCount) add() { c.n.Add(1) }

// WriteTransactions is how many write transactions this Store has
// committed since it was opened (the schema's migrations included): in a
// file archive each one waits for an fsync of the write-ahead log
// (synchronous=FULL). Tests and benchmarks count them per mail
// (docs/performance.md); a failed or rolled-back transaction is not
// counted.
func (s *Store) WriteTransactions() int64 { return s.commits.n.Load() }
