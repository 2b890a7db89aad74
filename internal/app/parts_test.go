package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/sources"
)

// A source is compiled once for its commit: a second repository naming it
// and a project edit reuse the part as saved; a part removed, or replaced
// under its summary, is compiled again; a forced build compiles it again;
// and a source whose part cannot be saved is compiled into the project's
// manifest, as before parts. In every case the manifest a build writes
// is the same.
func TestPartIsCompiledOncePerCommit(t *testing.T) {
	_, cache := hermetic(t)
	_, url := orgSource(t)
	a := projectNaming(t, url, "")
	mustSync(t, a)
	parts, _ := filepath.Glob(filepath.Join(cache, "lore", "sources", "acme-*", "*.part"))
	if len(parts) != 1 {
		t.Fatalf("parts %v, want one", parts)
	}
	part := parts[0]
	first := manifest.StatPath(part)
	b := projectNaming(t, url, "")
	if _, err := Build(b, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, a, ".lore/lessons/new.md", scopedLesson("01JRQABE0000000000000000N1", "New", "active"))
	if _, err := Build(a, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if manifest.StatPath(part) != first {
		t.Fatal("a second repository or a project edit compiled the part again")
	}

	// Damaged, the part is compiled again by the next build (here after
	// an edit), which writes what a build from nothing writes.
	for i, damage := range []func(){
		func() { os.Remove(part) },
		func() { os.WriteFile(part, []byte("not a manifest"), 0o644) },
		func() { os.WriteFile(sources.SummaryPath(part), []byte("LOREPART1\x00cut"), 0o644) },
	} {
		damage()
		write(t, a, ".lore/lessons/new.md", scopedLesson("01JRQABE0000000000000000N1", fmt.Sprintf("New %d", i), "active"))
		if _, err := Build(a, BuildOptions{}); err != nil {
			t.Fatal(err)
		}
		if savedPart(part) == nil {
			t.Fatalf("damage %d: the part was not compiled again", i)
		}
		got, _ := a.ReadFile(lorepath.Manifest)
		want, _, err := compileStore(a, true, true)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("damage %d: the manifest differs from a build from nothing", i)
		}
	}
	before := manifest.StatPath(part)
	if _, err := Build(a, BuildOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if manifest.StatPath(part) == before {
		t.Fatal("a forced build trusted the saved part")
	}

	// A part that cannot be saved (a folder in its place): the source's
	// items are compiled into the project's manifest.
	for _, p := range []string{part, sources.SummaryPath(part)} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(part, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(a, BuildOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.ReadFile(lorepath.Manifest); !bytes.Contains(got, []byte("acme:lessons/plan.md")) {
		t.Fatal("a source whose part could not be saved is missing from the manifest")
	}
}

// A checkout gone from the cache (cleared in part) is a source never
// fetched for every command alike: the build, lore match and the hook's
// manifest leave its items out, though its part is still there, doctor
// asks for lore sync, and lore sync brings it back.
func TestGoneCheckoutActsNowhere(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "")
	mustSync(t, s)
	dirs, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "lore", "sources", "acme-*"))
	if len(dirs) != 1 {
		t.Fatalf("source folders %v", dirs)
	}
	dir := dirs[0]
	commit := sources.Head(dir)
	if err := os.RemoveAll(filepath.Join(dir, commit)); err != nil {
		t.Fatal(err)
	}
	b, err := Build(s, BuildOptions{})
	if err != nil || b.Items != 2 || !slices.ContainsFunc(b.Problems(), func(p string) bool { return strings.HasPrefix(p, "source acme has no copy here") }) {
		t.Fatalf("build: %d items, %v, %q; want the project's 2 and why", b.Items, err, b.Problems())
	}
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != ".lore/lessons/plan.md .lore/lessons/shared.md" {
		t.Fatalf("match injects %v", got)
	}
	if l, err := List(s, ListOptions{}); err != nil || len(l.Items) != 2 || !slices.Equal(l.Unfetched, []string{"acme"}) {
		t.Fatalf("list: %d items, no copy of %v, %v", len(l.Items), l.Unfetched, err)
	}
	if got := doctorMessages(Doctor(s, os.Getenv)); !strings.Contains(got, "action sources: acme's copy ("+commit[:12]+") is gone from the cache") {
		t.Fatalf("doctor:\n%s", got)
	}
	mustSync(t, s)
	if got := injectedFor(t, s, "terraform apply"); !slices.Contains(got, "acme:lessons/plan.md") {
		t.Fatalf("after the sync, match injects %v", got)
	}
}
