// taflmail game pages: step through the plies of the board with links
// and the arrow keys (Home, End, ←, →). The positions come from the
// page's data (#plies: {"n": size, "plies": [[otn, from, to, [captures]], …]},
// a square numbered rank*n+file, rank 1 first); without this script
// the page shows the final position and the move list.
(function () {
  "use strict";
  var data = document.getElementById("plies");
  var board = document.getElementById("board");
  if (!data || !board) { return; }
  var d = JSON.parse(data.textContent);
  var n = d.n, plies = d.plies, last = plies.length - 1, cur = last;
  var svgNS = "http://www.w3.org/2000/svg";
  var pieces = document.getElementById("pieces");
  var caps = document.getElementById("caps");
  var rows = document.querySelectorAll("tr.ply");
  var caption = document.getElementById("caption");
  var otn = document.getElementById("otn");
  function xy(c) {
    var f = c % n, r = Math.floor(c / n);
    return [28 + f * 48 + 1, 28 + (n - 1 - r) * 48 + 1];
  }
  function parse(s) {
    var cells = [], rows = s.split("/").filter(function (x) { return x !== ""; });
    for (var r = 0; r < rows.length; r++) {
      var num = "";
      for (var k = 0; k < rows[r].length; k++) {
        var ch = rows[r][k];
        if (ch >= "0" && ch <= "9") { num += ch; continue; }
        if (num) { for (var e = 0; e < +num; e++) { cells.push(""); } num = ""; }
        cells.push(ch === "t" ? "pa" : ch === "T" ? "pd" : ch === "K" ? "pk" : "");
      }
      if (num) { for (var e2 = 0; e2 < +num; e2++) { cells.push(""); } }
    }
    return cells;
  }
  function mark(id, c) {
    var el = document.getElementById(id);
    if (!el) { return; }
    if (c < 0) { el.setAttribute("visibility", "hidden"); return; }
    var p = xy(c);
    el.setAttribute("x", p[0]); el.setAttribute("y", p[1]);
    el.removeAttribute("visibility");
  }
  function show(k, focus) {
    k = Math.max(0, Math.min(last, k));
    cur = k;
    var p = plies[k], cells = parse(p[0]);
    while (pieces.firstChild) { pieces.removeChild(pieces.firstChild); }
    for (var c = 0; c < cells.length; c++) {
      if (!cells[c]) { continue; }
      var u = document.createElementNS(svgNS, "use"), q = xy(c);
      u.setAttribute("href", "#" + cells[c]);
      u.setAttribute("x", q[0] + 23); u.setAttribute("y", q[1] + 23);
      pieces.appendChild(u);
    }
    mark("last-from", p[1]); mark("last-to", p[2]);
    while (caps.firstChild) { caps.removeChild(caps.firstChild); }
    p[3].forEach(function (c) {
      var q = xy(c), path = document.createElementNS(svgNS, "path");
      path.setAttribute("class", "cap");
      path.setAttribute("d", "M" + (q[0] + 13) + " " + (q[1] + 13) + "l20 20M" + (q[0] + 33) + " " + (q[1] + 13) + "l-20 20");
      caps.appendChild(path);
    });
    for (var i = 0; i < rows.length; i++) { rows[i].classList.toggle("cur", i === k); }
    var row = document.getElementById("ply-" + k);
    if (row && focus) { row.scrollIntoView({ block: "nearest" }); }
    if (caption && row) { caption.textContent = row.getAttribute("data-caption"); }
    if (otn) { otn.textContent = p[0]; }
    link("go-prev", k - 1); link("go-next", k + 1);
    board.setAttribute("data-ply", k);
  }
  function link(id, k) {
    var a = document.getElementById(id);
    if (a) { a.setAttribute("href", "#ply-" + Math.max(0, Math.min(last, k))); }
  }
  function fromHash(focus) {
    var m = /^#ply-(\d+)$/.exec(location.hash);
    show(m ? +m[1] : last, focus);
  }
  function go(k) {
    k = Math.max(0, Math.min(last, k));
    if (history.replaceState) { history.replaceState(null, "", "#ply-" + k); }
    show(k, true);
  }
  document.getElementById("steps").hidden = false;
  window.addEventListener("hashchange", function () { fromHash(true); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA") { return; }
    var k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last }[e.key];
    if (k === undefined) { return; }
    e.preventDefault();
    go(k);
  });
  document.querySelectorAll("#steps a, tr.ply a").forEach(function (a) {
    a.addEventListener("click", function (e) {
      var m = /#ply-(\d+)$/.exec(a.getAttribute("href"));
      if (!m) { return; }
      e.preventDefault();
      go(+m[1]);
    });
  });
  fromHash(false);
})();
