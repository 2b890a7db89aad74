// Package agent installs and removes lore's agent integration in a
// repository: the hook entries in .claude/settings.json (merged with
// encoding/json only, keeping the user's entries, their order and unknown
// keys), the slash commands and the sub-agent files lore ships.
package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ClaudeEvents are the Claude Code events lore registers, in order, with
// their matcher ("" for none: every tool or source).
var ClaudeEvents = []struct{ Event, Matcher string }{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", ""},
	{"SubagentStart", ""},
	{"PreCompact", ""},
	{"Stop", ""},
	{"SessionEnd", ""},
}

// hookTimeout is the agent-side timeout (seconds); lore's own deadline
// (hooks.Deadline) is far below it.
const hookTimeout = 10

// member is one key of a JSON object with its raw value, in file order.
type member struct {
	Key   string
	Value json.RawMessage
}

// object is a JSON object that keeps its keys' order and unknown values.
type object []member

func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var o object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the object")
	}
	return o, nil
}

func (o object) get(key string) (json.RawMessage, int) {
	for i, m := range o {
		if m.Key == key {
			return m.Value, i
		}
	}
	return nil, -1
}

// set replaces key's value in place, or appends it.
func (o object) set(key string, v json.RawMessage) object {
	if _, i := o.get(key); i >= 0 {
		o[i].Value = v
		return o
	}
	return append(o, member{key, v})
}

func (o object) del(key string) object {
	if _, i := o.get(key); i >= 0 {
		return append(o[:i:i], o[i+1:]...)
	}
	return o
}

func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encode(m.Key))
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// IsLoreCommand reports whether a hook command is one lore installed:
// `lore-hook <agent> <event>` or `lore hook <agent> <event>`, by name or path.
func IsLoreCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	var bin string
	if rest, ok := strings.CutPrefix(cmd, `"`); ok {
		// A quoted path (HookCommand quotes paths with spaces).
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			return false
		}
		bin, cmd = rest[:i], "x "+rest[i+1:]
	}
	f := strings.Fields(cmd)
	if len(f) < 3 {
		return false
	}
	if bin == "" {
		bin = f[0]
	}
	bin = bin[strings.LastIndexAny(bin, `/\`)+1:]
	bin = strings.TrimSuffix(bin, ".exe")
	switch bin {
	case "lore-hook":
		return true
	case "lore":
		return f[1] == "hook"
	}
	return false
}

// MergeClaude adds lore's hook entries to a .claude/settings.json (nil or
// empty data: a new file) and returns the new file. Entries lore added
// before are replaced; everything else is kept in order. command(event)
// gives the command line for an event.
func MergeClaude(data []byte, command func(event string) string) ([]byte, error) {
	root, err := settingsObject(data)
	if err != nil {
		return nil, err
	}
	root, err = removeLore(root)
	if err != nil {
		return nil, err
	}
	hooksRaw, _ := root.get("hooks")
	hooks := object{}
	if len(hooksRaw) > 0 {
		if hooks, err = parseObject(hooksRaw); err != nil {
			return nil, fmt.Errorf("agent: .claude/settings.json: hooks: %w", err)
		}
	}
	for _, e := range ClaudeEvents {
		entry := object{{"type", encode("command")}, {"command", encode(command(e.Event))}, {"timeout", encode(hookTimeout)}}.marshal()
		group := object{}
		if e.Matcher != "" {
			group = group.set("matcher", encode(e.Matcher))
		}
		group = group.set("hooks", array([]json.RawMessage{entry}))
		var groups []json.RawMessage
		if raw, _ := hooks.get(e.Event); len(raw) > 0 {
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, fmt.Errorf("agent: .claude/settings.json: hooks.%s: %w", e.Event, err)
			}
		}
		groups = append(groups, group.marshal())
		hooks = hooks.set(e.Event, array(groups))
	}
	root = root.set("hooks", hooks.marshal())
	return indent(root)
}

// UnmergeClaude removes exactly lore's hook entries. empty reports that
// nothing else is left in the file.
func UnmergeClaude(data []byte) (out []byte, empty bool, err error) {
	root, err := settingsObject(data)
	if err != nil {
		return nil, false, err
	}
	if root, err = removeLore(root); err != nil {
		return nil, false, err
	}
	out, err = indent(root)
	return out, len(root) == 0, err
}

func settingsObject(data []byte) (object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return object{}, nil
	}
	o, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("agent: .claude/settings.json: %w", err)
	}
	return o, nil
}

// removeLore drops lore's commands from every event's groups, then groups
// left with no hooks, events left with no groups, and "hooks" left empty.
// Groups and events lore did not touch keep their bytes.
func removeLore(root object) (object, error) {
	hooksRaw, _ := root.get("hooks")
	if len(hooksRaw) == 0 {
		return root, nil
	}
	hooks, err := parseObject(hooksRaw)
	if err != nil {
		return nil, fmt.Errorf("agent: .claude/settings.json: hooks: %w", err)
	}
	var kept object
	for _, ev := range hooks {
		var groups []json.RawMessage
		if json.Unmarshal(ev.Value, &groups) != nil {
			kept = append(kept, ev) // not a list: not lore's to judge
			continue
		}
		changed := false
		var out []json.RawMessage
		for _, g := range groups {
			ng, touched, drop := withoutLore(g)
			changed = changed || touched
			if !drop {
				out = append(out, ng)
			}
		}
		switch {
		case !changed:
			kept = append(kept, ev)
		case len(out) > 0:
			kept = append(kept, member{ev.Key, array(out)})
		}
	}
	if len(kept) == 0 {
		return root.del("hooks"), nil
	}
	return root.set("hooks", kept.marshal()), nil
}

// withoutLore removes lore's commands from one matcher group. drop: the
// group held only lore's commands.
func withoutLore(g json.RawMessage) (out json.RawMessage, touched, drop bool) {
	o, err := parseObject(g)
	if err != nil {
		return g, false, false
	}
	raw, _ := o.get("hooks")
	var hs []json.RawMessage
	if json.Unmarshal(raw, &hs) != nil {
		return g, false, false
	}
	var keep []json.RawMessage
	for _, h := range hs {
		var c struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(h, &c) == nil && IsLoreCommand(c.Command) {
			touched = true
			continue
		}
		keep = append(keep, h)
	}
	if !touched {
		return g, false, false
	}
	if len(keep) == 0 {
		return nil, true, true
	}
	return o.set("hooks", array(keep)).marshal(), true, false
}

// encode marshals v without HTML escaping (a user's `a && b` stays as is).
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only lore's own strings and maps get here
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// array joins raw values into a JSON array, bytes untouched.
func array(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func indent(o object) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, o.marshal(), "", "  "); err != nil {
		return nil, fmt.Errorf("agent: .claude/settings.json: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
