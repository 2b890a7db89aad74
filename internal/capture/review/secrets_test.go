package review

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/capture/scan"
)

// TestGitleaksExamplesInDrafts: every gitleaks rule example, written by an
// agent as lines of a #lesson block (where "adafruit_token: ..." is a field
// of its own, its key holding the rule's keyword), inside the block's prose
// and in a shell command, leaves no secret in the drafts a scan composes (docs/design.md,
// Secrets). -short keeps the first three examples of each rule.
func TestGitleaksExamplesInDrafts(t *testing.T) {
	exs := gitleaksExamples(t)
	var tr strings.Builder
	for i, ex := range exs {
		name := letters(i) // a scan folds digits: each block is its own draft
		text := fmt.Sprintf("#lesson\ntool: Bash\ntrigger: make deploy\nmistake: deploy %s failed\nfix: rotate it\n%s\n#/lesson\n", name, ex.Text)
		prose := fmt.Sprintf("#lesson\ntool: Bash\ntrigger: make ship\nmistake: the log of ship %s printed %s and stopped\nfix: rotate it\n#/lesson\n", name, ex.Text)
		command := fmt.Sprintf("#lesson\ntool: Bash\ntrigger: make run\nmistake: run %s had no credentials\nfix: $ echo %s >> .env && make run\n#/lesson\n", name, ex.Text)
		for _, s := range []string{text, prose, command} {
			tr.Write(assistantLine(s))
		}
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(tr.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := scan.Scan([]string{path}, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var drafts strings.Builder
	for _, c := range res.Candidates {
		data, err := Compose(c, draftKind(c), "01JQXYZ8K2M4N6P8Q0R2S4T6V8", "", now)
		if err != nil {
			t.Fatal(err)
		}
		drafts.Write(data)
	}
	if len(res.Candidates) < 3*len(exs)*9/10 {
		t.Fatalf("%d drafts of %d examples", len(res.Candidates), len(exs))
	}
	all, leaked := drafts.String(), map[string]bool{}
	for _, ex := range exs {
		for _, s := range ex.Secrets {
			if strings.Contains(all, s) && !leaked[ex.Rule] {
				leaked[ex.Rule] = true
				t.Errorf("%s: %q is in a draft", ex.Rule, s)
			}
		}
	}
	t.Logf("%d examples, %d drafts, %d rules leak", len(exs), len(res.Candidates), len(leaked))
}

type gitleaksExample struct {
	Rule    string
	Text    string
	Secrets []string
}

func gitleaksExamples(t *testing.T) []gitleaksExample {
	f, err := os.Open(filepath.Join("..", "..", "knowledge", "redact", "testdata", "gitleaks", "examples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []gitleaksExample
	per := map[string]int{}
	for sc.Scan() {
		var ex gitleaksExample
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		if per[ex.Rule]++; !testing.Short() || per[ex.Rule] <= 3 {
			out = append(out, ex)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// letters names n in letters only.
func letters(n int) string {
	s := ""
	for ; ; n /= 26 {
		s += string(rune('a' + n%26))
		if n < 26 {
			return s
		}
	}
}
