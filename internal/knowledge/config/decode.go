package config

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// decoder reads a config file one setting at a time (docs/design.md,
// Configuration). A key no setting has, or a value that is not of its
// setting's type or range, is a problem naming its line and key, and
// leaves that one setting at its default while every other key is read:
// a build goes on with the rest rather than leave the repository without
// its deny guards over one bad key. yaml.v3 alone would stop at the first
// entry of a list it cannot decode, and name Go types, not keys.
type decoder struct {
	path     string
	problems []*Error
	// bad holds the entries of lists of mappings (sources[0],
	// consolidate.routes[1]) with an unknown key or a value of the wrong
	// type: validation leaves them out whole, since a source whose ref
	// fell back to its default would follow another branch. Until then
	// every entry keeps its place in the list, so a later problem names
	// its index as written.
	bad map[string]bool
	// lines holds the line of each key read (inject.threshold) and of
	// each list entry (sources[0]), for the problems validation finds.
	lines map[string]int
	// names holds the name each source entry gives itself, for messages.
	names map[string]string
	// top is what a top-level key no setting has is told.
	top string
}

// newDecoder reads the config file at path; top is what a top-level key
// no setting has is told ("" for the usual message).
func newDecoder(path, top string) *decoder {
	return &decoder{path: path, top: top, bad: map[string]bool{}, lines: map[string]int{}, names: map[string]string{}}
}

// nameEntry notes the name: the source entry n gives itself.
func (d *decoder) nameEntry(entry string, n *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode {
			d.names[entry] = v.Value
		}
	}
}

// line is the line of a key or list entry read, 1 when it was not.
func (d *decoder) line(key string) int {
	return max(d.lines[key], 1)
}

// add notes a problem, and what the commands that go on do without the
// key (Error.Effect).
func (d *decoder) add(line int, key, msg, effect string) {
	d.problems = append(d.problems, &Error{Path: d.path, Line: line, Key: key, Msg: msg, Effect: effect})
}

// leftOut says that the list entry is left out; a source's says so by
// its name, and that its items reach no agent: its guards are off.
func (d *decoder) leftOut(entry string) string {
	if name := d.names[entry]; name != "" {
		return fmt.Sprintf("source %s is left out: its items reach no agent", name)
	}
	if strings.HasPrefix(entry, "sources[") {
		return entry + " is left out: its items reach no agent"
	}
	return entry + " is left out"
}

// errs is every problem, in line order; nil when there is none.
func (d *decoder) errs() error {
	if len(d.problems) == 0 {
		return nil
	}
	slices.SortStableFunc(d.problems, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	return Errors(d.problems)
}

// decode reads data into v, a pointer to a struct holding the defaults.
func (d *decoder) decode(data []byte, v any) {
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		d.sections(data, v)
		return
	}
	if len(doc.Content) == 0 { // only comments
		return
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.MappingNode:
		d.mapping(root, reflect.ValueOf(v).Elem(), "", "")
	case root.Tag != "!!null":
		d.add(root.Line, "", "the config is a mapping of settings (key: value)", allDefaults)
	}
}

// sections reads YAML that does not parse as a whole one top-level key at
// a time (a line that starts with neither a blank nor '#' starts a key),
// so that a broken `disable:` list does not take the sources with it:
// each key whose lines parse is read as usual, and each other is a
// problem that leaves it at its default.
func (d *decoder) sections(data []byte, v any) {
	lines := strings.SplitAfter(string(data), "\n")
	root := &yaml.Node{Kind: yaml.MappingNode}
	for start := 0; start < len(lines); {
		end := start + 1
		for end < len(lines) && !startsKey(lines[end]) {
			end++
		}
		text := strings.Join(lines[start:end], "")
		key, _, _ := strings.Cut(strings.TrimSpace(lines[start]), ":")
		var doc yaml.Node
		switch err := yaml.Unmarshal([]byte(text), &doc); {
		case err != nil:
			e := d.yamlError(err)
			d.add(start+e.Line, key, e.Msg, fmt.Sprintf("everything under %s is at its default", key))
		case len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode:
			shiftLines(doc.Content[0], start)
			root.Content = append(root.Content, doc.Content[0].Content...)
		case len(doc.Content) == 1:
			d.add(start+1, "", "not a setting (key: value)", "the line is ignored")
		}
		start = end
	}
	d.mapping(root, reflect.ValueOf(v).Elem(), "", "")
}

// startsKey says whether a line starts a top-level key: a first byte
// that is neither a blank nor a comment, nor a list item of the key
// above.
func startsKey(line string) bool {
	return line != "" && !strings.ContainsRune(" \t\r\n#-", rune(line[0]))
}

// shiftLines adds by to the line of n and of every node under it.
func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// mapping reads the mapping n into the struct v, key by key. entry is the
// list entry n is (sources[0]), "" for settings: an unknown key or a bad
// value in an entry leaves the entry out (list).
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, prefix, entry string) {
	fields := yamlFields(v.Type())
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := prefix + k.Value
		if first, twice := d.lines[key]; twice {
			d.add(k.Line, key, fmt.Sprintf("is set twice (also on line %d)", first), "this one is ignored")
			continue
		}
		d.lines[key] = k.Line
		f, known := fields[k.Value]
		if !known {
			msg, effect := unknownMsg(prefix, fields), ""
			if prefix == "" && d.top != "" {
				msg = d.top
			}
			if entry != "" {
				// A misspelt key of a source (rev: for ref:) would leave it
				// following another branch.
				effect = d.leftOut(entry)
				d.bad[entry] = true
			}
			d.add(k.Line, key, msg, effect)
			continue
		}
		fv := v.FieldByIndex(f.Index)
		switch {
		case val.Tag == "!!null": // `inject:` with nothing under it: the defaults
		case f.Type.Kind() == reflect.Struct && val.Kind == yaml.MappingNode:
			d.mapping(val, fv, key+".", entry)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct && val.Kind == yaml.SequenceNode:
			d.list(val, fv, key)
		default:
			d.value(val, fv, key, entry)
		}
	}
}

// value decodes n into v, one setting: a value of another type leaves v
// as it was.
func (d *decoder) value(n *yaml.Node, v reflect.Value, key, entry string) {
	nv := reflect.New(v.Type())
	if err := n.Decode(nv.Interface()); err == nil {
		v.Set(nv.Elem())
		return
	}
	effect := usesDefault(v)
	if entry != "" {
		effect = d.leftOut(entry)
		d.bad[entry] = true
	}
	d.add(n.Line, key, fmt.Sprintf("%s, not %s", shownNode(n), typeName(v.Type())), effect)
}

// list reads a list of mappings entry by entry into the slice v.
func (d *decoder) list(n *yaml.Node, v reflect.Value, key string) {
	out := reflect.MakeSlice(v.Type(), 0, len(n.Content))
	for i, el := range n.Content {
		entry := fmt.Sprintf("%s[%d]", key, i)
		d.lines[entry] = el.Line
		if key == "sources" && el.Kind == yaml.MappingNode {
			d.nameEntry(entry, el)
		}
		e := reflect.New(v.Type().Elem())
		if el.Kind != yaml.MappingNode {
			d.add(el.Line, entry, fmt.Sprintf("%s, not a mapping (%s has %s)",
				shownNode(el), entry, strings.Join(fieldNames(yamlFields(e.Elem().Type())), ", ")), d.leftOut(entry))
			d.bad[entry] = true
		} else if d.mapping(el, e.Elem(), entry+".", entry); !d.bad[entry] {
			_ = el.Decode(e.Interface()) // again, through the type's UnmarshalYAML: a source keeps its line
		}
		out = reflect.Append(out, e.Elem())
	}
	v.Set(out)
}

// shownNode is how a problem quotes a value: a scalar as written, a list
// or a mapping by its kind.
func shownNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return strconv.Quote(n.Value)
}

// usesDefault says that the setting v, at its default, is used.
func usesDefault(v reflect.Value) string {
	return fmt.Sprintf("the default, %s, is used", shownValue(v))
}

// allDefaults is the effect of a config that holds no setting at all.
const allDefaults = "every setting is at its default"

// shownValue is how a problem names a setting's default.
func shownValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Slice:
		if v.Len() == 0 {
			return "none"
		}
	}
	return fmt.Sprint(v.Interface())
}

// typeName says what a setting of type t holds.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	}
	return "a mapping"
}

// yamlFields maps the YAML names of a struct's fields to them.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

func fieldNames(fields map[string]reflect.StructField) []string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// unknownMsg says which keys the mapping at prefix has.
func unknownMsg(prefix string, fields map[string]reflect.StructField) string {
	where := "the config"
	if prefix != "" {
		where = strings.TrimSuffix(prefix, ".")
	}
	return fmt.Sprintf("unknown key (%s has %s)", where, strings.Join(fieldNames(fields), ", "))
}

// setDefault sets the setting at the dotted key of c (inject.threshold)
// back to its value in def, and returns that value.
func setDefault(c, def reflect.Value, dotted string) reflect.Value {
	for name := range strings.SplitSeq(dotted, ".") {
		f := yamlFields(c.Type())[name]
		c, def = c.FieldByIndex(f.Index), def.FieldByIndex(f.Index)
	}
	c.Set(def)
	return def
}

// yamlError is YAML that does not parse, as an Error naming the line
// yaml.v3 gives.
func (d *decoder) yamlError(err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := lineRe().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(lineRe().ReplaceAllString(msg, ""))
	}
	return &Error{Path: d.path, Line: line, Msg: "invalid YAML: " + msg}
}
