package publicname

import (
	"errors"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("name", name)
	referee.HelpLine(102, "help.name")
}

// name answers "name" (issue 20, docs/commands.md): alone it says under
// which name the club's web pages show the sender; "name Ada Lovelace"
// chooses that name (club.CheckPublicName's form, unique among the
// players) and "name -" goes back to the pseudonym. Choosing or clearing
// changes what everyone sees, so it needs the sender's key for one of
// their games (a forged From must not rename anyone); asking does not:
// the answer goes to the address itself.
func name(ss *referee.Session, c *grammar.NameCommand) error {
	ns, ok := ss.Server.NamePort()
	if !ok {
		return errors.New("server: the store keeps no public names")
	}
	cur, err := ns.PublicName(ss.Ctx, ss.From)
	if err != nil {
		return err
	}
	key, err := ns.PseudonymKey(ss.Ctx)
	if err != nil {
		return err
	}
	pseudonym := club.Pseudonym(key, ss.From, 0)
	shown := cur
	if shown == "" {
		shown = pseudonym
	}
	if c.Name == nil {
		if cur == "" {
			ss.Say(nil, referee.Tr(ss.Lang, "name.show.pseudonym", pseudonym))
		} else {
			ss.Say(nil, referee.Tr(ss.Lang, "name.show", cur))
		}
		return nil
	}
	if ss.Auth == nil {
		return ss.Refuse("err.name.key")
	}
	if c.Name.Text == "-" {
		publicNameOf(ss).choose("")
		ss.Say(ss.Auth, referee.Tr(ss.Lang, "name.cleared", pseudonym))
		return nil
	}
	want, err := club.CheckPublicName(c.Name.Text)
	var ne *club.NameError
	if errors.As(err, &ne) {
		switch ne.Reason {
		case club.NameTooShort:
			return ss.Refuse("err.name.short", referee.Clip(want), club.MinPublicName)
		case club.NameTooLong:
			return ss.Refuse("err.name.long", referee.Clip(want), club.MaxPublicName)
		}
		return ss.Refuse(nameRefusals[ne.Reason], referee.Clip(want))
	}
	if err != nil {
		return err
	}
	if want == cur {
		ss.Say(ss.Auth, referee.Tr(ss.Lang, "name.same", cur))
		return nil
	}
	owner, err := ns.PublicNameOwner(ss.Ctx, want)
	if err != nil {
		return err
	}
	if owner != "" && owner != ss.From {
		return ss.Refuse("err.name.taken", referee.Clip(want))
	}
	publicNameOf(ss).choose(want)
	ss.Say(ss.Auth, referee.Tr(ss.Lang, "name.set", want, shown))
	return nil
}

// Module is the public name feature's module, which the assembly
// (server/assembly.go) hands to the core first of all: "name" chooses or
// clears the sender's public name, and Collect, its one hook
// (referee.Collector), writes it with the mail's change. Its value is
// also the key of its state in a session (referee.StateOf).
type Module struct{}

// Name is the module's name in the registry: "publicName".
func (Module) Name() string { return "publicName" }

// publicNameChoice is what one session changes of the public names: the
// sender's new one, when the mail chose one.
type publicNameChoice struct {
	chosen bool
	name   string // "" goes back to the pseudonym
}

// choose makes name the sender's new public name ("" clears it).
func (c *publicNameChoice) choose(name string) { c.chosen, c.name = true, name }

// publicNameOf returns the public name module's state in ss, made on
// first use (referee.StateOf): the one way to it, for cmd_name.go alone.
func publicNameOf(ss *referee.Session) *publicNameChoice {
	return referee.StateOf[publicNameChoice](ss, Module{})
}

// Collect adds the sender's chosen public name to change, when the mail
// chose one, as an archive.PublicNames write ("" clears it); a session
// that never used the module adds nothing.
func (Module) Collect(ss *referee.Session, change *archive.Change) {
	if !ss.Uses(Module{}) {
		return
	}
	if c := publicNameOf(ss); c.chosen {
		change.Writes = append(change.Writes, archive.PublicNames{ss.From: c.name})
	}
}

// nameRefusals are the refusals of the other reasons of a
// club.NameError.
var nameRefusals = map[string]string{
	club.NameChars: "err.name.chars", club.NameLetter: "err.name.letter", club.NameReserved: "err.name.reserved",
}
