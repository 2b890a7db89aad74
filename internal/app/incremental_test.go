package app

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/synthetic"
	"github.com/lore-agents/lore/internal/testrepo"
)

// edits a store's item files the way people do: a changed file, a config
// change, a removed file, a renamed one, then random edits (fixed seed)
// that make items invalid, unsafe (a secret) or just different.
type edits struct {
	t   *testing.T
	r   *testrepo.Repo
	rng *rand.Rand
}

func (e edits) files() []string {
	var out []string
	for _, dir := range []string{"lessons", "pitfalls"} {
		ents, err := os.ReadDir(e.r.Path(lorepath.Dir + "/" + dir))
		if err != nil {
			e.t.Fatal(err)
		}
		for _, d := range ents {
			if strings.HasSuffix(d.Name(), ".md") {
				out = append(out, lorepath.Dir+"/"+dir+"/"+d.Name())
			}
		}
	}
	slices.Sort(out)
	return out
}

func (e edits) pick() string { f := e.files(); return f[e.rng.IntN(len(f))] }

func (e edits) rewrite(rel string, edit func(string) string) string {
	e.r.Write(rel, edit(e.r.Read(rel)))
	return "edit " + rel
}

func (e edits) random() string {
	rel := e.pick()
	switch e.rng.IntN(5) {
	case 0:
		return e.rewrite(rel, func(s string) string { return strings.Replace(s, "status: active", "status: bogus", 1) })
	case 1:
		return e.rewrite(rel, func(s string) string { return s + "\nThe token was sk-proj-abc123DEF456ghi789JKL0 here.\n" })
	case 2:
		return e.rewrite(rel, func(s string) string { return strings.Replace(s, "priority: ", "priority: high\nx: ", 1) })
	case 3:
		if err := os.Rename(e.r.Path(rel), e.r.Path(strings.TrimSuffix(rel, ".md")+"-moved.md")); err != nil {
			e.t.Fatal(err)
		}
		return "rename " + rel
	default:
		return e.rewrite(rel, func(s string) string { return s + fmt.Sprintf("\nOne more line %d.\n", e.rng.IntN(1000)) })
	}
}

// TestCachedBuildEqualsColdBuild: after every edit, a build that takes
// the unchanged files from its cache reads only the changed ones, and
// writes the same manifest bytes and the same report as a build that
// reads and checks every file again. The store has the user's items
// beside the project's (one shadowed by a project id), critical and
// always-on items, and a skill whose lessons fold under it.
func TestCachedBuildEqualsColdBuild(t *testing.T) {
	r := testrepo.New(t)
	s := r.Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		t.Fatal(err)
	}
	files := synthetic.Files(120)
	for rel, data := range files {
		r.Write(rel, string(data))
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the user's store is this test's alone
	user := compile.UserDir()
	for i, rel := range slices.Sorted(maps.Keys(files))[:12] {
		data := string(files[rel])
		if i > 0 { // the first keeps its id: the project's shadows it
			data = strings.Replace(data, "id: 01", "id: 02", 1)
		}
		testrepo.WriteFile(t, filepath.Join(user, strings.TrimPrefix(rel, lorepath.Dir+"/")), data)
	}
	for i := range compile.MinAggregate {
		r.Write(fmt.Sprintf("%s/lessons/pytest-%d.md", lorepath.Dir, i), fmt.Sprintf(
			"---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T%03d\nkind: lesson\ntitle: pytest lesson %d\nstatus: active\npriority: high\n"+
				"tags: [tool:pytest]\ntriggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\n---\n\n## Fix\nRun it with -p no:cacheprovider (%d).\n", i, i, i))
	}
	r.Write(lorepath.Dir+"/lessons/always.md", "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4TA01\nkind: lesson\ntitle: Answer in English\n"+
		"status: active\npriority: high\n---\n\n## Fix\nAnswer in English, whatever the language of the code.\n")
	plan, err := PlanAggregate(s)
	if err != nil || len(plan.Steps) == 0 {
		t.Fatalf("aggregate: %v %+v", err, plan)
	}
	if err := ApplyAggregate(s, plan); err != nil {
		t.Fatal(err)
	}
	e := edits{t, r, rand.New(rand.NewPCG(7, 26))}
	steps := []func() string{
		func() string { return "none" },
		func() string { return e.rewrite(e.pick(), func(s string) string { return s + "\nChanged.\n" }) },
		func() string {
			return e.rewrite(lorepath.Config, func(string) string { return "inject:\n  minConfidence: 0.9\n  drafts: true\n" })
		},
		func() string {
			rel := e.pick()
			if err := os.Remove(r.Path(rel)); err != nil {
				t.Fatal(err)
			}
			return "remove " + rel
		},
		func() string {
			rel := e.pick()
			if err := os.Rename(r.Path(rel), r.Path(lorepath.Dir+"/pitfalls/renamed.md")); err != nil {
				t.Fatal(err)
			}
			return "rename " + rel
		},
	}
	for range 25 {
		steps = append(steps, e.random)
	}
	checked, folded := 0, 0
	for i, step := range steps {
		what := step()
		cached, err := Build(s, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The changed file, and those a build left the cache out of date
		// for (fewer than one in a hundred).
		if i > 0 && !cached.Fresh && (cached.Read > 1+cached.All/100 || cached.All < 120) {
			t.Errorf("after %s: read %d of %d item files, want the changed one and at most 1%% more", what, cached.Read, cached.All)
		}
		got := r.Read(lorepath.Manifest)
		cache := r.Read(lorepath.ItemCache)
		if err := os.Remove(r.Path(lorepath.ItemCache)); err != nil {
			t.Fatal(err)
		}
		want, cold, err := compileStore(s, false, false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal([]byte(got), want) || !reflect.DeepEqual(cached.Report, cold.Report) {
			t.Fatalf("after %s: the cached build differs from the cold one\ncached %+v\ncold   %+v", what, cached.Report.Excluded, cold.Report.Excluded)
		}
		checked += len(cold.Report.Excluded)
		folded += cold.Report.Folded
		if cold.Report.Shadowed == 0 || cold.Report.AlwaysOn == 0 {
			t.Fatalf("after %s: %d shadowed, %d always on: the store lost what the test is about", what, cold.Report.Shadowed, cold.Report.AlwaysOn)
		}
		r.Write(lorepath.ItemCache, cache)
	}
	if b, err := Build(s, BuildOptions{Force: true}); err != nil || b.Read != b.All || b.All < 120 {
		t.Errorf("a forced build read %d of %d item files (%v), want all", b.Read, b.All, err)
	}
	if checked == 0 || folded == 0 {
		t.Fatalf("%d excluded, %d folded over the edits: the test checks nothing of the cached errors or skills", checked, folded)
	}
}

// A project file whose name has a colon is the project's, not a store's
// (origin:path): it is compiled, built from nothing and from the cache.
func TestColonInAFileName(t *testing.T) {
	r := testrepo.New(t)
	s := r.Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Write(lorepath.Dir+"/lessons/ci:timeouts.md", "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4TC01\nkind: lesson\ntitle: Raise the CI timeout first\n"+
		"status: active\npriority: high\ntriggers:\n  tools: [Bash]\n  commands: ['\\bgo\\s+test\\b']\n---\n\n## Fix\nRaise the timeout.\n")
	if b, err := Build(s, BuildOptions{Force: true}); err != nil || b.Report.Compiled != 1 {
		t.Fatalf("build from nothing: %d compiled, %v", b.Report.Compiled, err)
	}
	r.Write(lorepath.Dir+"/lessons/other.md", "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4TC02\nkind: lesson\ntitle: Other\nstatus: active\n---\n\n## Fix\nx\n")
	if b, err := Build(s, BuildOptions{}); err != nil || b.Report.Compiled != 2 || b.Read != 1 {
		t.Fatalf("build with the cache: %d compiled, %d read, %v", b.Report.Compiled, b.Read, err)
	}
}
