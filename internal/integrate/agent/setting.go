package agent

import "strings"

// Setting returns the JSON text of the value at keys in a settings file
// ("" when the file does not set it). comments: the file may hold // and
// /* */ comments. An error reads "<line>: <problem>"; the caller names the
// file.
func Setting(data []byte, comments bool, keys ...string) (string, error) {
	root, err := parseJSON(data, comments)
	if err != nil {
		return "", err
	}
	return lookup(data, root, keys), nil
}

// lookup is the text of the value at keys under n, "" when absent.
func lookup(data []byte, n *node, keys []string) string {
	for _, k := range keys {
		if n.kind != '{' {
			return ""
		}
		if _, n = n.member(k); n == nil {
			return ""
		}
	}
	return string(data[n.start:n.end])
}

// OffSetting names the setting that turns every hook of the agent off and
// the value that does ("disableAllHooks", "true"); "" when there is none.
func (a *Agent) OffSetting() (key, value string) {
	if len(a.off) == 0 {
		return "", ""
	}
	return strings.Join(a.off[:len(a.off)-1], "."), a.off[len(a.off)-1]
}

// OffIn reads the off setting in one of the agent's settings files (the
// project's, the user's, managed ones): set says whether the file sets it
// at all (the file of highest precedence that sets it decides), off
// whether its value turns every hook off.
func (a *Agent) OffIn(data []byte) (set, off bool, err error) {
	if len(a.off) == 0 {
		return false, false, nil
	}
	v, err := Setting(data, a.Comments, a.off[:len(a.off)-1]...)
	return v != "", v == a.off[len(a.off)-1], err
}
