package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/mail"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// RegisterFlags defines on fs a flag for every key but the passwords
// (a command line is visible to every user of the machine), named after the
// key ("imap.poll_interval" → --imap-poll-interval), with the default of
// [Default] and the key's help text. Flags fs already has are left alone.
func RegisterFlags(fs *pflag.FlagSet) {
	for _, k := range Keys() {
		if k.Flag == "" || fs.Lookup(k.Flag) != nil {
			continue
		}
		switch d := k.Default.(type) {
		case string:
			fs.String(k.Flag, d, k.Help)
		case int:
			fs.Int(k.Flag, d, k.Help)
		case int64:
			fs.Int64(k.Flag, d, k.Help)
		case bool:
			fs.Bool(k.Flag, d, k.Help)
		case time.Duration:
			fs.Duration(k.Flag, d, k.Help)
		default:
			panic(fmt.Sprintf("config: key %s has type %T, which has no flag", k.Name, d))
		}
	}
}

// renamed says, for a key taflmail no longer reads, what took its place.
var renamed = map[string]string{
	// issue 18 §2
	"server.stranger_replies_per_hour": "the budget for keyless mails is now server.junk_replies_per_10m " +
		"(per 10 minutes, and only for mails without a valid command) and server.domain_replies_per_10m (per domain)",
}

// Load builds the configuration from, in rising precedence, [Default], the
// YAML file (none if file is ""), the TAFLMAIL_* environment variables and
// the flags of flags that were set (flags may be nil). v is the viper
// instance to use, a new one if nil; the global viper is never touched.
//
// Load then reads the password files, checks that the OAuth2 token files
// hold a token (without keeping it), fills the values derived from others
// (server.domain from server.address, smtp.helo_name from server.domain)
// and validates. It returns the configuration even when it is not valid,
// for display, together with every problem found, joined (errors.Join),
// each naming its key. A file that cannot be read or holds an unknown key
// is an error too.
func Load(v *viper.Viper, flags *pflag.FlagSet, file string) (Config, error) {
	if v == nil {
		v = viper.New()
	}
	keys := Keys()
	if err := bindKeys(v, flags, keys); err != nil {
		return Config{}, err
	}
	if file != "" {
		v.SetConfigFile(file)
		v.SetConfigType("yaml")
		text, err := readLimited(file, MaxFileBytes)
		if err == nil {
			err = v.ReadConfig(bytes.NewReader(text))
		}
		if err != nil {
			return Default(), fileError(file, err)
		}
	}

	// Every problem is collected, none stops the others (trial report §5):
	// unknown keys, then values that cannot be decoded, then the checks.
	var problems []error
	if file != "" {
		problems = unknownKeys(v, keys, file)
	}
	c, decodeProblems, undecoded := decodeKeys(v, keys)
	problems = append(problems, decodeProblems...)
	problems = append(problems, c.readFiles()...)
	c.derive()
	for _, e := range unjoin(c.Validate()) {
		var ke *KeyError
		if errors.As(e, &ke) && undecoded[ke.Key] {
			continue
		}
		problems = append(problems, e)
	}
	return c, errors.Join(problems...)
}

// bindKeys gives v the default, the environment variable and the flag of
// flags (if set and flags is not nil) of each of keys. The error, from
// viper, names the key or flag.
func bindKeys(v *viper.Viper, flags *pflag.FlagSet, keys []Key) error {
	for _, k := range keys {
		v.SetDefault(k.Name, k.Default)
		if err := v.BindEnv(k.Name, k.Env); err != nil {
			return fmt.Errorf("config: %s: %w", k.Name, err)
		}
		if flags != nil && k.Flag != "" {
			if f := flags.Lookup(k.Flag); f != nil {
				if err := v.BindPFlag(k.Name, f); err != nil {
					return fmt.Errorf("config: --%s: %w", k.Flag, err)
				}
			}
		}
	}
	return nil
}

// unknownKeys returns a [*KeyError] for every key v read from file that is
// none of keys, in sorted order: one renamed says what replaced it, a
// section given one value is told to indent its keys, any other is unknown.
func unknownKeys(v *viper.Viper, keys []Key, file string) []error {
	known := make(map[string]bool, len(keys))
	for _, k := range keys {
		known[k.Name] = true
	}
	var problems []error
	all := v.AllKeys()
	slices.Sort(all)
	for _, k := range all {
		switch {
		case known[k]:
		case renamed[k] != "":
			problems = append(problems, &KeyError{Key: k, Problem: "no longer read in " + file + ": " + renamed[k]})
		case isSection(keys, k):
			problems = append(problems, &KeyError{Key: k, Problem: fmt.Sprintf("is a section: write its keys (%s, …) indented below it, not one value", firstKey(keys, k))})
		default:
			problems = append(problems, &KeyError{Key: k, Problem: "unknown key in " + file})
		}
	}
	return problems
}

// decodeKeys returns [Default] with every one of keys decoded from v into
// it, a [*KeyError] for each value that cannot be, and the set of those
// keys, which keep their default.
//
// Decode key by key rather than with v.Unmarshal, so that a value of the
// wrong type is reported with its key and the value's source does not
// matter. Load leaves an undecoded key out of the checks, which would only
// complain again.
func decodeKeys(v *viper.Viper, keys []Key) (c Config, problems []error, undecoded map[string]bool) {
	c = Default()
	undecoded = map[string]bool{}
	root := reflect.ValueOf(&c).Elem()
	for _, k := range keys {
		if err := decode(fieldByKey(root, k.Name), v.Get(k.Name)); err != nil {
			problems = append(problems, &KeyError{Key: k.Name, Problem: err.Error()})
			undecoded[k.Name] = true
		}
	}
	return c, problems, undecoded
}

// readFiles reads the password files into c and checks that the OAuth2
// token files and the CA files can be read, in the order imap and smtp
// passwords, token files, CA files. It returns a problem for each that
// cannot: a [*KeyError] on the password_file key, or the error of the
// token or TLS reader, which names its key.
func (c *Config) readFiles() []error {
	var problems []error
	for _, p := range []struct {
		key      string
		password *Secret
		file     string
	}{
		{"imap", &c.IMAP.Password, c.IMAP.PasswordFile},
		{"smtp", &c.SMTP.Password, c.SMTP.PasswordFile},
	} {
		if err := readPassword(p.password, p.file); err != nil {
			problems = append(problems, &KeyError{Key: p.key + ".password_file", Problem: err.Error()})
		}
	}
	// A token file is read at each connection; here only whether it can
	// be, so that a wrong path shows at once. A token command runs only
	// when a token is needed (and in 'taflmail config check').
	for _, t := range []struct{ section, file string }{{"imap", c.IMAP.OAuth2TokenFile}, {"smtp", c.SMTP.OAuth2TokenFile}} {
		if t.file != "" {
			if _, err := oauth2Token(context.Background(), t.section, "", t.file); err != nil {
				problems = append(problems, err)
			}
		}
	}
	// A CA file is read again at each connection; here whether it holds
	// certificates, so that a wrong path or file shows at once.
	if _, err := c.IMAP.TLSConfig(); err != nil {
		problems = append(problems, err)
	}
	if _, err := c.SMTP.TLSConfig(); err != nil {
		problems = append(problems, err)
	}
	return problems
}

// unjoin lists the errors of an errors.Join, or err alone; nil for nil.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// FileError is a configuration file that cannot be read, or that is not a
// YAML mapping of sections. Load returns it alone, with [Default].
type FileError struct {
	File    string // the path as given
	Line    int    // the line of the problem; 0 when none applies
	Problem string // in plain words
	Err     error  // the cause, from the file system or the YAML reader
}

// Error returns "file: problem" or "file: line n: problem".
func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Problem)
	}
	return e.File + ": " + e.Problem
}

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// The YAML reader's words for a file that is not a mapping, and for a
// syntax error.
var (
	yamlTypeRE   = regexp.MustCompile(`line (\d+): cannot unmarshal !!(\w+)`)
	yamlSyntaxRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

// fileError says in plain words why viper could not read file (trial
// report §11: "cannot unmarshal !!seq into map[string]interface {}").
func fileError(file string, err error) error {
	var pe viper.ConfigParseError
	if !errors.As(err, &pe) {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			return &FileError{File: file, Problem: "cannot be read: " + pathErr.Err.Error(), Err: err}
		}
		return &FileError{File: file, Problem: "cannot be read: " + err.Error(), Err: err}
	}
	msg := err.Error()
	if cause := errors.Unwrap(pe); cause != nil {
		msg = cause.Error()
	}
	if m := yamlTypeRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		what := map[string]string{"seq": "a list", "str": "a line of text", "int": "a number", "float": "a number", "bool": "true or false", "null": "nothing"}[m[2]]
		if what == "" {
			what = "a single value"
		}
		return &FileError{File: file, Line: line, Problem: "the file must hold sections such as imap: and server:, not " + what, Err: err}
	}
	if m := yamlSyntaxRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &FileError{File: file, Line: line, Problem: "not valid YAML (" + m[2] + "): look for an unclosed quote or bracket, or a tab in the indentation", Err: err}
	}
	return &FileError{File: file, Problem: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: "), Err: err}
}

// isSection reports whether name is a section of keys ("log" of
// "log.level").
func isSection(keys []Key, name string) bool { return firstKey(keys, name) != "" }

// firstKey returns the first key of section name, or "".
func firstKey(keys []Key, name string) string {
	for _, k := range keys {
		if strings.HasPrefix(k.Name, name+".") {
			return k.Name
		}
	}
	return ""
}

// readPassword fills *password from file, if file is set, dropping one
// trailing newline (LF or CRLF).
func readPassword(password *Secret, file string) error {
	if file == "" {
		return nil
	}
	if *password != "" {
		return errors.New("set, and so is the password itself: use one")
	}
	text, err := readLimited(file, maxTokenBytes)
	if err != nil {
		return err
	}
	s := strings.TrimSuffix(string(text), "\n")
	s = strings.TrimSuffix(s, "\r")
	if s == "" {
		return fmt.Errorf("%s is empty", file)
	}
	*password = Secret(s)
	return nil
}

// derive fills the settings whose default comes from another one.
func (c *Config) derive() {
	if c.Server.Domain == "" {
		if a, err := mail.ParseAddress(c.Server.Address); err == nil {
			if at := strings.LastIndexByte(a.Address, '@'); at >= 0 {
				c.Server.Domain = strings.ToLower(a.Address[at+1:])
			}
		}
	}
	if c.SMTP.HeloName == "" {
		c.SMTP.HeloName = c.Server.Domain
	}
}

// fieldByKey returns the field of the Config root that key names.
func fieldByKey(root reflect.Value, key string) reflect.Value {
	v := root
	for part := range strings.SplitSeq(key, ".") {
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).Tag.Get("mapstructure") == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

// decode stores x, a value as viper found it (the default's own type, a
// YAML scalar or nil, or the text of an environment variable or a flag),
// into field.
func decode(field reflect.Value, x any) error {
	if x == nil { // a YAML key without a value
		field.SetZero()
		return nil
	}
	switch field.Interface().(type) {
	case time.Duration:
		switch x := x.(type) {
		case time.Duration:
			field.SetInt(int64(x))
		case string:
			d, err := time.ParseDuration(strings.TrimSpace(x))
			if err != nil {
				return fmt.Errorf("not a duration like \"90s\" or \"5m\": %q", x)
			}
			field.SetInt(int64(d))
		default:
			return fmt.Errorf("duration %v has no unit: write e.g. \"%vs\" or \"%vm\"", x, x, x)
		}
	case string, Secret:
		switch x := x.(type) {
		case string:
			field.SetString(x)
		case Secret:
			field.SetString(string(x))
		case int, int64, float64, bool:
			field.SetString(fmt.Sprint(x))
		default:
			return fmt.Errorf("not a text: %v", x)
		}
	case int, int64:
		var n int64
		var err error
		switch x := x.(type) {
		case int:
			n = int64(x)
		case int64:
			n = x
		case float64:
			if x != float64(int64(x)) {
				err = errors.New("fraction")
			}
			n = int64(x)
		case string:
			n, err = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		default:
			err = errors.New("wrong type")
		}
		if err != nil || field.OverflowInt(n) {
			return fmt.Errorf("not a whole number: %v", x)
		}
		field.SetInt(n)
	case bool:
		switch x := x.(type) {
		case bool:
			field.SetBool(x)
		case string:
			b, err := strconv.ParseBool(strings.TrimSpace(x))
			if err != nil {
				return fmt.Errorf("not true or false: %q", x)
			}
			field.SetBool(b)
		default:
			return fmt.Errorf("not true or false: %v", x)
		}
	default:
		panic(fmt.Sprintf("config: no decoding for %s", field.Type()))
	}
	return nil
}

// MaxFileBytes is the largest configuration file read: 1 MiB, a
// thousand times a full one. A larger file, or an endless one
// (/dev/zero), is refused after reading one byte more.
const MaxFileBytes = 1 << 20

// readLimited reads file whole, failing when it holds more than limit
// bytes (having read limit+1 of them at most).
func readLimited(file string, limit int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(text)) > limit {
		return nil, fmt.Errorf("larger than %d bytes, the most read", limit)
	}
	return text, nil
}
