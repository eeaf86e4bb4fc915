package server

import "testing"

func TestZZExplore(t *testing.T) {
	h := newHarness(t)
	startCopenhagen(t, h)
	for _, line := range []string{"d1-d12", "d1-d20", "l1-l2", "t1-t2", "a4-a12"} {
		sent := h.reply(alice, line)
		t.Logf("alice %q: refused %q", line, h.refused)
		for _, m := range sent {
			t.Logf("%s", m.msg.Text[:min(900, len(m.msg.Text))])
		}
	}
}
