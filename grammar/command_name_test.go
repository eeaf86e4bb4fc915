package grammar

import "testing"

// TestNameCommand: the name command takes the rest of its line as the
// name, alone it asks, "-" clears; prose that starts with "name" is not
// a command.
func TestNameCommand(t *testing.T) {
	for _, c := range []struct {
		line, name string
		german     bool
	}{
		{"name", "", false},
		{"name Ada Lovelace", "Ada Lovelace", false},
		{"NAME  Jörg  Müller", "Jörg  Müller", false},
		{"anzeigename Jörg Müller-Lüdenscheidt", "Jörg Müller-Lüdenscheidt", true},
		{"name -", "-", false},
		{"name O'Brien 2", "O'Brien 2", false},
	} {
		cmd, err := ParseCommand("mail", 1, c.line)
		if err != nil {
			t.Errorf("ParseCommand(%q) = %v", c.line, err)
			continue
		}
		n, ok := cmd.(*NameCommand)
		if !ok {
			t.Errorf("ParseCommand(%q) = %T, want *NameCommand", c.line, cmd)
			continue
		}
		got := ""
		if n.Name != nil {
			got = n.Name.Text
		}
		if got != c.name || n.German() != c.german {
			t.Errorf("ParseCommand(%q) = name %q German %v, want %q %v", c.line, got, n.German(), c.name, c.german)
		}
	}
	for line, want := range map[string]bool{
		"name": true, "Name Ada Lovelace": true, "name -": true, "anzeigename Ada": true,
		"Name the day you like!": false, "name: Ada": false, "Name, please": false,
		"name one two three four five six": false, `name "Ada"`: false,
	} {
		if got := IsCommandLine(line); got != want {
			t.Errorf("IsCommandLine(%q) = %v, want %v", line, got, want)
		}
	}
}
