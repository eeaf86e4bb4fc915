// Package web is the club's public face (issue 20): web pages of its
// events, games, players and ratings, drawn from a read-only snapshot of
// the application layer (club.Club), in English or German.
//
// The pages:
//   - index.html: events running, taking entries (with how to join by
//     mail) and finished; recent results; the rating lists' heads;
//   - events/ID.html: the crosstables (the numbers of `taflmail
//     standings`: shared places, Sonneborn–Berger, withdrawals marked),
//     the games by round with status and clocks, and events/ID/feed.xml,
//     an Atom feed of its results (RFC 4287);
//   - games/ID.html: the board as inline SVG, stepped through ply by ply
//     with links or the arrow keys (static/board.js; without JavaScript
//     the final position and the move list), captures marked, clocks per
//     ply, the result and its reason, and the record as games/ID.tafl,
//     .otg and .csv;
//   - players/ID.html: the public name, the ratings with a rating
//     history plot (SVG drawn here), games and events; players.html;
//   - ratings.html: per variant, rating, RD and games, with the rule;
//   - feed.xml: the club's results; style.css and board.js.
//
// Nothing on them is a mail address or a key: players appear under
// their public names (package club), and private games are not in the
// snapshot. A [Site] renders one snapshot; [Build] writes it as a static
// site, rewriting only files whose content changed; [Handler] serves the
// pages live, reloading the snapshot when the archive changes, with
// ETag and Last-Modified, and never writes. Only net/http and
// html/template: no framework, no script from elsewhere.
package web
