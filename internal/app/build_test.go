package app

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/lorepath"
)

// TestBuildNeverReadsBackTheManifest: a manifest truncated in place after
// the build (as another process rewriting it would) must not reach the
// manifest the build returns. Mapped, the truncated pages fault (SIGBUS);
// SetPanicOnFault turns that fault into a panic this test reports.
func TestBuildNeverReadsBackTheManifest(t *testing.T) {
	s := newStore(t)
	for i := range 3 {
		lesson(t, s, fmt.Sprintf("l%d", i), fmt.Sprintf("01JQXYZ8K2M4N6P8Q0R2S4T6V%d", i), "git")
	}
	for _, force := range []bool{true, false} { // a new build, then the fresh one on disk
		b, m, err := build(s, force, true)
		if err != nil {
			t.Fatal(err)
		}
		if b.Fresh == force {
			t.Fatalf("force %v: Fresh %v", force, b.Fresh)
		}
		if err := os.Truncate(s.Path(lorepath.Manifest), 0); err != nil {
			t.Fatal(err)
		}
		func() {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("force %v: the manifest read the file back: %v", force, r)
				}
			}()
			if err := m.Verify(); err != nil || m.Len() != 3 {
				t.Fatalf("force %v: %d items, %v", force, m.Len(), err)
			}
		}()
		m.Close()
		if force { // restore the file for the fresh pass
			if _, err := Build(s, BuildOptions{Force: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBuildSkipsAnOversizedItem: an item over lint's size limit is left
// out of the manifest and reported with its file and the reason; the rest
// of the store still builds.
func TestBuildSkipsAnOversizedItem(t *testing.T) {
	s := newStore(t)
	lesson(t, s, "small", "01JQXYZ8K2M4N6P8Q0R2S4T6V1", "git")
	lesson(t, s, "big", "01JQXYZ8K2M4N6P8Q0R2S4T6V2", "git")
	f, err := os.OpenFile(s.Path(".lore/lessons/big.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Repeat("More detail.\n", 2000)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := Build(s, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := b.Problems()
	if b.Items != 1 || len(p) != 1 || !strings.HasPrefix(p[0], "skipped .lore/lessons/big.md:1: oversized item: ") {
		t.Fatalf("%d items, problems %q", b.Items, p)
	}
}

// A kind folder that cannot be listed is said, and the others' items
// still compile.
func TestBuildSaysAFolderItCannotList(t *testing.T) {
	s := newStore(t)
	lesson(t, s, "small", "01JQXYZ8K2M4N6P8Q0R2S4T6V1", "git")
	if err := os.RemoveAll(s.Path(".lore/pitfalls")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(".lore/pitfalls"), []byte("not a folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Build(s, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := b.Problems()
	if b.Items != 1 || len(p) != 1 || !strings.Contains(p[0], ".lore/pitfalls") || !strings.Contains(p[0], "not a directory") {
		t.Fatalf("%d items, problems %q", b.Items, p)
	}
}

// A config problem and a source with no copy here are said by every
// build, the one that finds the manifest up to date too: git's hooks run
// it on every commit.
func TestEveryBuildSaysAConfigProblem(t *testing.T) {
	hermetic(t)
	s := newStore(t)
	lesson(t, s, "small", "01JQXYZ8K2M4N6P8Q0R2S4T6V1", "git")
	if err := os.WriteFile(s.Path(".lore/config.yaml"), []byte("inject:\n  threshold: high\nsources:\n  - {name: acme, url: 'file:///nowhere/acme.git'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		b, err := Build(s, BuildOptions{})
		p := b.Problems()
		if err != nil || b.Fresh != (i == 1) || b.Items != 1 || len(p) != 2 || p[0] != NoCopy("acme") ||
			p[1] != `.lore/config.yaml:2: inject.threshold: "high", not a number; the default, 0.7, is used until it is fixed` {
			t.Fatalf("build %d: fresh %v, %d items, problems %q, %v", i, b.Fresh, b.Items, p, err)
		}
	}
}
