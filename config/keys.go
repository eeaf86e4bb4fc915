package config

import (
	"reflect"
	"strings"
)

// EnvPrefix starts the name of every environment variable read.
const EnvPrefix = "TAFLMAIL"

// Key describes one setting.
type Key struct {
	Name    string       // dotted key, e.g. "imap.poll_interval"
	Env     string       // environment variable, e.g. "TAFLMAIL_IMAP_POLL_INTERVAL"
	Flag    string       // flag name without dashes, e.g. "imap-poll-interval"; "" for secrets, which have none
	Help    string       // one line for --help and the docs
	Default any          // value in Default()
	Type    reflect.Type // Go type of the field
}

var secretType = reflect.TypeFor[Secret]()

// Keys returns every setting, in the order of the Config struct.
func Keys() []Key {
	def := reflect.ValueOf(Default())
	t := def.Type()
	var keys []Key
	for i := range t.NumField() {
		section := t.Field(i)
		sname := section.Tag.Get("mapstructure")
		for j := range section.Type.NumField() {
			f := section.Type.Field(j)
			name := sname + "." + f.Tag.Get("mapstructure")
			k := Key{
				Name:    name,
				Env:     EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(name, ".", "_")),
				Help:    f.Tag.Get("help"),
				Default: def.Field(i).Field(j).Interface(),
				Type:    f.Type,
			}
			if f.Type != secretType {
				k.Flag = strings.NewReplacer(".", "-", "_", "-").Replace(name)
			}
			keys = append(keys, k)
		}
	}
	return keys
}
