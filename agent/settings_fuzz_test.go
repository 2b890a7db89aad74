package agent

import (
	"encoding/json"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzMergeClaude: a user's settings.json, whatever it holds, is merged
// and unmerged in time, and a merge that succeeds writes valid JSON.
func FuzzMergeClaude(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte("{\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]},\n  \"model\": \"x\"\n}\n"))
	f.Add([]byte(`{"hooks": [], "a": {"b": [1, 2.5e3, null]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var merged []byte
		var err error
		fuzzlimit.Run(t, func() {
			if merged, err = MergeClaude(data, func(event string) string { return "lore-hook claude " + event }); err == nil {
				UnmergeClaude(merged)
			}
			UnmergeClaude(data)
		})
		if err == nil && !json.Valid(merged) {
			t.Fatalf("merged %q into invalid JSON %q", data, merged)
		}
	})
}
