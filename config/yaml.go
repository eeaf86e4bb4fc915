package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// marshalYAML writes c in the layout of the configuration file: one
// section per struct, keys in struct order, strings double-quoted.
func marshalYAML(c Config) string {
	var b strings.Builder
	v := reflect.ValueOf(c)
	for i := range v.NumField() {
		if i > 0 {
			b.WriteByte('\n')
		}
		section := v.Type().Field(i)
		fmt.Fprintf(&b, "%s:\n", section.Tag.Get("mapstructure"))
		for j := range section.Type.NumField() {
			f := section.Type.Field(j)
			fmt.Fprintf(&b, "  %s: %s\n", f.Tag.Get("mapstructure"), yamlScalar(v.Field(i).Field(j).Interface()))
		}
	}
	return b.String()
}

// yamlScalar formats one value as a YAML scalar. strconv.Quote's escapes
// (\n, \t, \", \\, \x.., \u....) are all valid in YAML double-quoted
// strings.
func yamlScalar(x any) string {
	switch x := x.(type) {
	case string:
		return strconv.Quote(x)
	case Secret:
		return strconv.Quote(x.String())
	case time.Duration:
		return strconv.Quote(x.String())
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	panic(fmt.Sprintf("config: no YAML form for %T", x))
}
