package server

import (
	"errors"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("name", (*session).name)
	helpLine(102, "help.name")
}

// name answers "name" (issue 20, docs/commands.md): alone it says under
// which name the club's web pages show the sender; "name Ada Lovelace"
// chooses that name (club.CheckPublicName's form, unique among the
// players) and "name -" goes back to the pseudonym. Choosing or clearing
// changes what everyone sees, so it needs the sender's key for one of
// their games (a forged From must not rename anyone); asking does not:
// the answer goes to the address itself.
func (ss *session) name(c *grammar.NameCommand) error {
	ns, ok := ss.srv.namePort()
	if !ok {
		return errors.New("server: the store keeps no public names")
	}
	cur, err := ns.PublicName(ss.ctx, ss.from)
	if err != nil {
		return err
	}
	key, err := ns.PseudonymKey(ss.ctx)
	if err != nil {
		return err
	}
	pseudonym := club.Pseudonym(key, ss.from, 0)
	shown := cur
	if shown == "" {
		shown = pseudonym
	}
	if c.Name == nil {
		if cur == "" {
			ss.say(nil, tr(ss.lang, "name.show.pseudonym", pseudonym))
		} else {
			ss.say(nil, tr(ss.lang, "name.show", cur))
		}
		return nil
	}
	if ss.auth == nil {
		return ss.refuse("err.name.key")
	}
	if c.Name.Text == "-" {
		publicNameOf(ss).choose("")
		ss.say(ss.auth, tr(ss.lang, "name.cleared", pseudonym))
		return nil
	}
	want, err := club.CheckPublicName(c.Name.Text)
	var ne *club.NameError
	if errors.As(err, &ne) {
		switch ne.Reason {
		case club.NameTooShort:
			return ss.refuse("err.name.short", clip(want), club.MinPublicName)
		case club.NameTooLong:
			return ss.refuse("err.name.long", clip(want), club.MaxPublicName)
		}
		return ss.refuse(nameRefusals[ne.Reason], clip(want))
	}
	if err != nil {
		return err
	}
	if want == cur {
		ss.say(ss.auth, tr(ss.lang, "name.same", cur))
		return nil
	}
	owner, err := ns.PublicNameOwner(ss.ctx, want)
	if err != nil {
		return err
	}
	if owner != "" && owner != ss.from {
		return ss.refuse("err.name.taken", clip(want))
	}
	publicNameOf(ss).choose(want)
	ss.say(ss.auth, tr(ss.lang, "name.set", want, shown))
	return nil
}

// publicNameModule registers the public names (module.go): "name"
// chooses or clears the sender's, and the module writes it with the
// mail's change.
type publicNameModule struct{}

func (publicNameModule) name() string { return "publicName" }

// publicNameChoice is what one session changes of the public names: the
// sender's new one, when the mail chose one.
type publicNameChoice struct {
	chosen bool
	name   string // "" goes back to the pseudonym
}

// choose makes name the sender's new public name ("" clears it).
func (c *publicNameChoice) choose(name string) { c.chosen, c.name = true, name }

// publicNameOf returns the public name module's state in ss, made on
// first use (stateOf): the one way to it, for cmd_name.go alone.
func publicNameOf(ss *session) *publicNameChoice {
	return stateOf[publicNameChoice](ss, publicNameModule{})
}

// collect sets the sender's chosen public name in change
// (an archive.PublicNames write; "" clears it).
func (publicNameModule) collect(ss *session, change *archive.Change) {
	if !ss.uses(publicNameModule{}) {
		return
	}
	if c := publicNameOf(ss); c.chosen {
		change.Writes = append(change.Writes, archive.PublicNames{ss.from: c.name})
	}
}

// nameRefusals are the refusals of the other reasons of a
// club.NameError.
var nameRefusals = map[string]string{
	club.NameChars: "err.name.chars", club.NameLetter: "err.name.letter", club.NameReserved: "err.name.reserved",
}
