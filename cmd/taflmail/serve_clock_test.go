package main

import (
	"reflect"
	"testing"
	"time"

	"github.com/taflmail/taflmail/config"
)

// TestServerOptionsClock: the clock keys reach the referee: the leave
// allowance (0: none, which the server writes as negative) and the
// reminder lists (empty: none, an empty non-nil list).
func TestServerOptionsClock(t *testing.T) {
	cfg := config.Default()
	o := serverOptions(cfg, nil, nil, nil, nil)
	if o.LeaveDays != 30 || !reflect.DeepEqual(o.Reminders, []time.Duration{7 * 24 * time.Hour, 48 * time.Hour, 12 * time.Hour}) ||
		!reflect.DeepEqual(o.UntimedReminders, []time.Duration{7 * 24 * time.Hour, 14 * 24 * time.Hour, 21 * 24 * time.Hour}) {
		t.Errorf("defaults: leave %d, reminders %v, untimed %v", o.LeaveDays, o.Reminders, o.UntimedReminders)
	}
	cfg.Clock = config.Clock{LeaveDays: 0, Reminders: "", UntimedReminders: "3d"}
	o = serverOptions(cfg, nil, nil, nil, nil)
	if o.LeaveDays >= 0 || o.Reminders == nil || len(o.Reminders) != 0 || !reflect.DeepEqual(o.UntimedReminders, []time.Duration{72 * time.Hour}) {
		t.Errorf("no leave, no timed reminders: leave %d, reminders %#v, untimed %v", o.LeaveDays, o.Reminders, o.UntimedReminders)
	}
}

// TestServerOptionsEngine: the engine keys reach the referee: the think
// time, the searches at once, the table in bytes, and the games per
// player (0: none, which the server writes as negative).
func TestServerOptionsEngine(t *testing.T) {
	cfg := config.Default()
	o := serverOptions(cfg, nil, nil, nil, nil)
	if o.EngineThink != 10*time.Second || o.EngineSearches != 1 || o.EngineTableBytes != 16<<20 || o.EngineGames != 3 {
		t.Errorf("defaults: think %v, searches %d, table %d, games %d", o.EngineThink, o.EngineSearches, o.EngineTableBytes, o.EngineGames)
	}
	cfg.Engine = config.Engine{Think: 2 * time.Second, Searches: 2, TableMiB: 4, GamesPerPlayer: 0}
	o = serverOptions(cfg, nil, nil, nil, nil)
	if o.EngineThink != 2*time.Second || o.EngineSearches != 2 || o.EngineTableBytes != 4<<20 || o.EngineGames >= 0 {
		t.Errorf("changed: think %v, searches %d, table %d, games %d", o.EngineThink, o.EngineSearches, o.EngineTableBytes, o.EngineGames)
	}
}

// TestServerOptionsInvitationExpiry: server.invitation_expiry reaches the
// referee: 14 days by default, the days written, "never" as a negative
// duration (the server's "wait for ever").
func TestServerOptionsInvitationExpiry(t *testing.T) {
	cfg := config.Default()
	if o := serverOptions(cfg, nil, nil, nil, nil); o.InvitationExpiry != 14*24*time.Hour {
		t.Errorf("default: %v, want 14 days", o.InvitationExpiry)
	}
	cfg.Server.InvitationExpiry = "3d"
	if o := serverOptions(cfg, nil, nil, nil, nil); o.InvitationExpiry != 3*24*time.Hour {
		t.Errorf("3d: %v", o.InvitationExpiry)
	}
	cfg.Server.InvitationExpiry = "Never"
	if o := serverOptions(cfg, nil, nil, nil, nil); o.InvitationExpiry >= 0 {
		t.Errorf("never: %v, want a negative duration", o.InvitationExpiry)
	}
}

// TestServerOptionsMaxAttachment: server.max_attachment_bytes reaches the
// referee as it is, and 0 ("attach nothing") as a negative value, which
// is the server's "none" (its 0 is the default).
func TestServerOptionsMaxAttachment(t *testing.T) {
	cfg := config.Default()
	if o := serverOptions(cfg, nil, nil, nil, nil); o.MaxAttachmentBytes != 5<<20 {
		t.Errorf("default: %d, want 5 MiB", o.MaxAttachmentBytes)
	}
	cfg.Server.MaxAttachmentBytes = 1 << 20
	if o := serverOptions(cfg, nil, nil, nil, nil); o.MaxAttachmentBytes != 1<<20 {
		t.Errorf("1 MiB: %d", o.MaxAttachmentBytes)
	}
	cfg.Server.MaxAttachmentBytes = 0
	if o := serverOptions(cfg, nil, nil, nil, nil); o.MaxAttachmentBytes >= 0 {
		t.Errorf("0: %d, want a negative value", o.MaxAttachmentBytes)
	}
}

// TestServerOptionsArrivalGrace: clock.arrival_grace reaches the referee:
// a minute by default, the duration written, and 0 ("wait for nothing")
// as a negative value, which is the server's "none" (its 0 is the
// default).
func TestServerOptionsArrivalGrace(t *testing.T) {
	cfg := config.Default()
	if o := serverOptions(cfg, nil, nil, nil, nil); o.ArrivalGrace != time.Minute {
		t.Errorf("default: %v, want 1m", o.ArrivalGrace)
	}
	cfg.Clock.ArrivalGrace = 5 * time.Second
	if o := serverOptions(cfg, nil, nil, nil, nil); o.ArrivalGrace != 5*time.Second {
		t.Errorf("5s: %v", o.ArrivalGrace)
	}
	cfg.Clock.ArrivalGrace = 0
	if o := serverOptions(cfg, nil, nil, nil, nil); o.ArrivalGrace >= 0 {
		t.Errorf("0: %v, want a negative duration", o.ArrivalGrace)
	}
}
