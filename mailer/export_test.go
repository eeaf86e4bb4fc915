package mailer

// BreakConnection closes the Inbox's network connection under its feet, as a
// server restart or a dropped link would, for reconnect tests.
func (in *Inbox) BreakConnection() {
	in.cmu.Lock()
	defer in.cmu.Unlock()
	if in.conn != nil {
		in.conn.Close()
	}
}

// SetBeforeIdle makes Wait call f after its NOOP and before it starts IDLE,
// the window of issue 8 §6; nil removes it.
func SetBeforeIdle(in *Inbox, f func()) { in.beforeIdle = f }
