package lore

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestMain keeps the developer's machine out of the tests: see
// testrepo.Hermetic.
func TestMain(m *testing.M) { os.Exit(testrepo.Hermetic(m.Run)) }

// runsPrograms matches test code that runs git, lore or another program.
var runsPrograms = regexp.MustCompile(`exec\.Command\(|testrepo\.|testscript\.`)

// TestTestsAreHermetic: every package whose tests run programs (git, lore,
// go build) runs them through testrepo.Hermetic, so an installed lore, the
// user's git config or a GIT_DIR in the shell cannot change an answer.
// (e2e has its own harness: it is the one place the real clients run.)
func TestTestsAreHermetic(t *testing.T) {
	runs, hermetic := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (path == "e2e" || path == "tmp" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return err
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		runs[dir] = runs[dir] || runsPrograms.Match(data)
		hermetic[dir] = hermetic[dir] || strings.Contains(string(data), "testrepo.Hermetic(")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range runs {
		if runs[dir] && !hermetic[dir] {
			t.Errorf("%s: its tests run programs but no TestMain calls testrepo.Hermetic", dir)
		}
	}
}
