package referee

// Refusal is a command's failure, kept as what to say rather than as the
// words: a catalogue key, its arguments and the language of the sender it
// is for. Nothing the command did is kept. The words are written once,
// where the reply is (Session.run); Error gives the same words, for logs
// and for the director's commands that print it. Tests ask what was
// refused with errors.Is(err, RefusalKey("err.nogame")), not by wording.
//
// An argument that is itself a refusal is written as its words and
// wrapped (Unwrap): a conditional move's "Column 3: <why>" is an
// err.cond.at refusal wrapping the refusal of the move, and errors.Is
// finds either key.
type Refusal struct {
	lang string
	// Key is the catalogue key of the refusal's words ("err.nogame"):
	// what RefusalKey and errors.Is compare, and what Keys records.
	Key  string
	args []any
	// Before and After are the only words of a refusal that no catalogue
	// key holds: text its code composed around the key's, a caret line
	// under the column meant (conditionRefusal, leaveDateRefusal) before,
	// a hint (BoardHint, VariantHint) after. Both are in lang already.
	Before, After string
	// written, when not "", is the catalogue key the words are written
	// from instead of key: its singular form, key + ".one" (Refusen).
	written string
}

// RefusalKey is a refusal's key as an error to compare with: errors.Is
// reports whether an error is, or wraps, a refusal of that key (tests,
// and code that tells one refusal from another).
type RefusalKey string

// Error returns "refusal " and the key.
func (k RefusalKey) Error() string { return "refusal " + string(k) }

// text writes the refusal in its language: the words of the sender's
// reply.
func (r *Refusal) text() string {
	key := r.Key
	if r.written != "" {
		key = r.written
	}
	return r.Before + Tr(r.lang, key, r.args...) + r.After
}

// Error returns the refusal's words (text).
func (r *Refusal) Error() string { return r.text() }

// Is reports whether target is r's key (RefusalKey), for errors.Is.
func (r *Refusal) Is(target error) bool {
	k, ok := target.(RefusalKey)
	return ok && string(k) == r.Key
}

// Unwrap returns the refusals among r's arguments, for errors.Is and
// errors.As.
func (r *Refusal) Unwrap() []error {
	var inner []error
	for _, a := range r.args {
		if x, ok := a.(*Refusal); ok {
			inner = append(inner, x)
		}
	}
	return inner
}

// Keys returns r's key followed by the keys of the refusals it wraps,
// depth first: what Session.Refusals records of it.
func (r *Refusal) Keys() []string {
	out := []string{r.Key}
	for _, e := range r.Unwrap() {
		out = append(out, e.(*Refusal).Keys()...)
	}
	return out
}
