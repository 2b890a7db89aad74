package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A call that finds the manifest missing starts its build and logs that,
// and says nothing on stderr, which the clients show as the hook's output;
// an unknown event is a problem and reaches stderr.
func TestRoutineNewsStaysOffStderr(t *testing.T) {
	root := repo(t, testItems)
	os.Remove(filepath.Join(root, ".lore/cache/manifest"))
	fakeLore(t)
	in, _ := json.Marshal(bash(root, newSession(t), "pytest"))
	var out, errb bytes.Buffer
	Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &errb)
	if errb.Len() != 0 {
		t.Errorf("stderr = %q, want nothing", errb.String())
	}
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	if !strings.Contains(string(log), "manifest missing: not rebuilt within") {
		t.Errorf("hook.log lacks the rebuild:\n%s", log)
	}

	errb.Reset()
	Main([]string{"claude", "Nope"}, bytes.NewReader(in), &out, &errb)
	if !strings.Contains(errb.String(), `claude: unknown event "Nope"`) {
		t.Errorf("a problem must reach stderr: %q", errb.String())
	}
}
