package app

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

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

// TestCachedBuildEqualsColdBuild: after every edit, a build that reuses
// the saved verdicts writes the same manifest bytes and the same report
// as a build that checks every item again.
func TestCachedBuildEqualsColdBuild(t *testing.T) {
	r := testrepo.New(t)
	s := r.Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		t.Fatal(err)
	}
	for rel, data := range synthetic.Files(120) {
		r.Write(rel, string(data))
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
	checked := 0
	for _, step := range steps {
		what := step()
		cached, err := Build(s, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Read(lorepath.Manifest)
		verdicts := r.Read(lorepath.Verdicts)
		if err := os.Remove(r.Path(lorepath.Verdicts)); err != nil {
			t.Fatal(err)
		}
		want, cold, err := compileStore(s, false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal([]byte(got), want) || !reflect.DeepEqual(cached.Report, cold.Report) {
			t.Fatalf("after %s: the cached build differs from the cold one\ncached %+v\ncold   %+v", what, cached.Report.Excluded, cold.Report.Excluded)
		}
		checked += len(cold.Report.Excluded)
		r.Write(lorepath.Verdicts, verdicts)
	}
	if checked == 0 {
		t.Fatal("no edit made an item invalid or unsafe: the test checks nothing of the cached errors")
	}
}
