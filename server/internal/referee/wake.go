package referee

// Wake ends Run's wait for mail now, as the end of an engine turn does:
// Run goes round its loop at once, reads the inbox, fires the timers
// that are due and sends the outbox mails that are due. serve calls it
// when the SMTP relay is back and the deferred replies were made due
// (health.ProbeSMTP), so that they go out at once rather than at the
// next poll. Safe from any goroutine; a Wake while Run is busy ends its
// next wait (one at most is kept), and one before Run does the same.
// The engine opponent's runner calls it when a turn ends.
func (s *Server) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
