package archive

import (
	"context"
	"path/filepath"
	"testing"
)

func TestZZDebug(t *testing.T) {
	ctx := context.Background()
	s, _ := OpenWith(ctx, filepath.Join(t.TempDir(), "f.db"), Options{})
	defer s.Close()
	for _, q := range []string{
		`EXPLAIN QUERY PLAN SELECT game_id, n, move, at, message_id FROM plies WHERE game_id IN (SELECT value FROM json_each('["a"]')) ORDER BY game_id, n`,
		`EXPLAIN QUERY PLAN SELECT id FROM games WHERE attackers = 'x' OR defenders = 'x' ORDER BY CASE status WHEN 'active' THEN 0 WHEN 'invited' THEN 0 ELSE 1 END, updated_at DESC, id`,
		`EXPLAIN QUERY PLAN SELECT id FROM outbox AS o
WHERE o.status = 'pending' AND o.next_attempt <= '1'
	AND NOT (o.game_id <> '' AND EXISTS (
		SELECT 1 FROM outbox AS e
		WHERE e.game_id = o.game_id AND e.status = 'pending' AND e.recipients = o.recipients
			AND e.next_attempt > '1' AND (e.created_at, e.id) < (o.created_at, o.id)))
ORDER BY o.game_id, o.created_at, o.id`,
	} {
		rows, err := s.db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a, b, c int
			var d string
			rows.Scan(&a, &b, &c, &d)
			t.Log(d)
		}
		rows.Close()
		t.Log("--")
	}
}
