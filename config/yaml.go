package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// marshalYAML writes c in the layout of the configuration file: one
// section per struct, keys in struct order, strings double-quoted, a
// blank line between sections. go.yaml.in/yaml/v3 writes each section
// from a node tree, which fixes the order of the keys and the quoting of
// every value.
func marshalYAML(c Config) string {
	v := reflect.ValueOf(c)
	sections := make([]string, 0, v.NumField())
	for i := range v.NumField() {
		section := v.Type().Field(i)
		body := &yaml.Node{Kind: yaml.MappingNode}
		for j := range section.Type.NumField() {
			f := section.Type.Field(j)
			body.Content = append(body.Content, yamlKey(f.Tag.Get("mapstructure")), yamlScalar(v.Field(i).Field(j).Interface()))
		}
		doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{yamlKey(section.Tag.Get("mapstructure")), body}}
		var b strings.Builder
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(doc); err != nil {
			// Scalars of the kinds yamlScalar makes always encode.
			panic(fmt.Sprintf("config: writing section %s as YAML: %v", section.Name, err))
		}
		_ = enc.Close() // flushes into b, which does not fail
		sections = append(sections, b.String())
	}
	return strings.Join(sections, "\n")
}

// yamlKey returns a mapping key as a plain scalar.
func yamlKey(name string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}
}

// yamlScalar returns one value as a YAML scalar: strings, durations and
// masked secrets double-quoted, numbers and booleans plain.
func yamlScalar(x any) *yaml.Node {
	str := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
	}
	plain := func(tag, s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	}
	switch x := x.(type) {
	case string:
		return str(x)
	case Secret:
		return str(x.String())
	case time.Duration:
		return str(x.String())
	case bool:
		return plain("!!bool", strconv.FormatBool(x))
	case int:
		return plain("!!int", strconv.Itoa(x))
	case int64:
		return plain("!!int", strconv.FormatInt(x, 10))
	}
	panic(fmt.Sprintf("config: no YAML form for %T", x))
}
