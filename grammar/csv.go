package grammar

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// CSVGame is one line of the CSV exchange format of open-source tafl engines
// (shared/records/README.md):
//
//	<plies>,<attacker captures>,<defender captures>,<outcome>
//
// The plies are separated by blanks, attackers first; the last may be
// "timeout" (the side to move lost on time). A captured king is never marked
// and a doubled mark (e7-k7xk6xk6) is one capture; both are kept as written.
type CSVGame struct {
	Pos lexer.Position
	// Line is the game's 1-based line number in the file.
	Line  int
	Plies []*Ply `parser:"@@*"`
	// AttackerCaptures and DefenderCaptures are the numbers of pieces each
	// side captured, as the file says.
	AttackerCaptures int `parser:"',':Comma @Int"`
	DefenderCaptures int `parser:"',':Comma @Int"`
	// Outcome is as written: "Black" (attackers won), "White" (defenders
	// won), "Draw" or "Ongoing"; see Result.
	Outcome string `parser:"',':Comma @('Black':Word | 'White':Word | 'Draw':Word | 'Ongoing':Word)"`
}

// Result returns the game's outcome: Black is AttackersWin, White is
// DefendersWin, Draw is Draw and Ongoing is Unfinished. Many wins in the
// corpus are resignations or time-outs rather than rule events.
func (g *CSVGame) Result() Outcome {
	switch g.Outcome {
	case "Black":
		return AttackersWin
	case "White":
		return DefendersWin
	case "Draw":
		return Draw
	}
	return Unfinished
}

type csvFile struct {
	Games []*CSVGame `parser:"Newline* ( @@ ( Newline+ | EOF ) )*"`
}

var csvParser = participle.MustBuild[csvFile](
	participle.Lexer(csvLexer),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
)

// ParseCSV parses a CSV file of games, one game per line. Blank lines are
// skipped; line ends may be LF or CRLF. filename is used in error positions
// only. Errors are *Error.
func ParseCSV(filename string, src []byte) (games []*CSVGame, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	f, err := csvParser.ParseBytes(filename, src)
	if err != nil {
		return nil, convertError(err, filename, src, "")
	}
	for _, g := range f.Games {
		g.Line = g.Pos.Line
		if err := checkPlies(src, g.Plies...); err != nil {
			return nil, convertError(err, filename, src, "")
		}
	}
	if f.Games == nil {
		return []*CSVGame{}, nil
	}
	return f.Games, nil
}
