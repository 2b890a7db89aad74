package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/testrepo"
)

// TestDraftsFromRealTranscriptsLint is the bar "0 drafts that fail lint":
// every candidate of the real and labelled transcripts, written as a
// draft, passes lore lint without an error, has a one-line title of at most
// 100 characters and one-word tool: tags.
func TestDraftsFromRealTranscriptsLint(t *testing.T) {
	s := testrepo.NewStore(t)
	files, err := scan.Files([]string{filepath.Join("..", "scan", "testdata", "transcripts"), filepath.Join("..", "scan", "testdata", "labelled")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := scan.Scan(files, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Write(s, res.Candidates, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != len(res.Candidates) || len(w) < 20 {
		t.Fatalf("wrote %d drafts of %d candidates", len(w), len(res.Candidates))
	}
	var st lint.Store
	for _, d := range w {
		data, err := os.ReadFile(s.Path(d.Path))
		if err != nil {
			t.Fatal(err)
		}
		st.Items = append(st.Items, lint.File{Path: d.Path, Data: data})
		if strings.ContainsAny(d.Title, "\n\r") || strings.Contains(d.Title, `\n`) || len([]rune(d.Title)) > 100 {
			t.Errorf("%s: title %q", d.Path, d.Title)
		}
		for _, tag := range d.Tags {
			if strings.HasPrefix(tag, "tool:") && strings.ContainsAny(tag, " \t") {
				t.Errorf("%s: tag %q", d.Path, tag)
			}
		}
	}
	errs, warns := lint.Count(lint.Check(st))
	for _, f := range lint.Check(st) {
		if f.Severity == lint.Error {
			t.Errorf("%s", f)
		}
	}
	t.Logf("%d drafts: %d lint errors, %d warnings", len(w), errs, warns)
}
