package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// unknownKey is the first key of the YAML document n that the Go type t
// (what n decodes into) has no field for, as an Error naming its line and
// dotted key (inject.thrshold) and the keys its mapping has; nil when
// every key is known. yaml.v3's KnownFields reports the same keys, but in
// one message naming Go types and only the first line.
func unknownKey(n *yaml.Node, t reflect.Type) *Error {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	return unknownIn(n, t, "")
}

func unknownIn(n *yaml.Node, t reflect.Type, prefix string) *Error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				return &Error{Line: k.Line, Key: prefix + k.Value, Msg: unknownMsg(prefix, fields)}
			}
			if err := unknownIn(v, ft, prefix+k.Value+"."); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, v := range n.Content {
			if err := unknownIn(v, t.Elem(), fmt.Sprintf("%s[%d].", strings.TrimSuffix(prefix, "."), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// yamlFields maps the YAML names of a struct's fields to their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// unknownMsg says which keys the mapping at prefix has.
func unknownMsg(prefix string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	where := "the config"
	if prefix != "" {
		where = strings.TrimSuffix(prefix, ".")
	}
	return fmt.Sprintf("unknown key (%s has %s)", where, strings.Join(names, ", "))
}
