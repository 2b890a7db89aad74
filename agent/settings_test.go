package agent

import (
	"encoding/json"
	"strings"
	"testing"
)

func cmd(event string) string { return "lore-hook claude " + event }

func TestMergeKeepsUserEntriesAndIsIdempotent(t *testing.T) {
	user := `{"z":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify && say done"}]}]},"a":{"b":[true,null]}}`
	once, err := MergeClaude([]byte(user), cmd)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := MergeClaude(once, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if string(once) != string(twice) {
		t.Errorf("merge is not idempotent:\n%s\n---\n%s", once, twice)
	}
	s := string(once)
	if !(strings.Index(s, `"z"`) < strings.Index(s, `"hooks"`) && strings.Index(s, `"hooks"`) < strings.Index(s, `"a"`)) {
		t.Errorf("key order changed:\n%s", s)
	}
	if !strings.Contains(s, "notify && say done") || strings.Count(s, "lore-hook claude Stop") != 1 {
		t.Errorf("user's Stop hook lost or lore's duplicated:\n%s", s)
	}
	back, empty, err := UnmergeClaude(once)
	if err != nil || empty {
		t.Fatal(err, empty)
	}
	var want, got any
	json.Unmarshal([]byte(user), &want)
	json.Unmarshal(back, &got)
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if string(wb) != string(gb) {
		t.Errorf("uninstall did not restore the user's settings:\n%s\nwant %s", gb, wb)
	}
	if _, empty, _ := UnmergeClaude(mustMerge(t, nil)); !empty {
		t.Error("a file with only lore's hooks is not empty after uninstall")
	}
}

func mustMerge(t *testing.T, data []byte) []byte {
	out, err := MergeClaude(data, cmd)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMergeRejectsBrokenSettings(t *testing.T) {
	for _, bad := range []string{`[1]`, `{"hooks":`, `{"a":1} {"b":2}`, `{"hooks":{"Stop":{"not":"a list"}}}`} {
		if _, err := MergeClaude([]byte(bad), cmd); err == nil {
			t.Errorf("MergeClaude(%s) succeeded", bad)
		}
	}
}

func TestIsLoreCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"lore-hook claude PreToolUse":              true,
		"/usr/local/bin/lore-hook claude Stop":     true,
		`"/opt/my tools/lore" hook claude Stop`:    true,
		`"/opt/my tools/lore" build`:               false,
		"lore hook claude SessionStart":            true,
		"lore build --quiet":                       false,
		"my-lore-hook claude PreToolUse":           false,
		"C:\\bin\\lore-hook.exe claude PreToolUse": true,
		"guard.sh": false,
	} {
		if got := IsLoreCommand(cmd); got != want {
			t.Errorf("IsLoreCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}
