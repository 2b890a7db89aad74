package app

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/synthetic"
	"github.com/lore-agents/lore/internal/testrepo"
)

// The manifest a build writes, read with its part as the hook reads it,
// decides every call as the in-memory build of every scope that `lore
// match` makes (one manifest, no parts): the same items, in the same
// order, with the same texts, denies and drops. The store is realistic
// (internal/synthetic), split between the project (100 items) and an
// organisation source (500) behind a bare file:// remote; of the org
// items the timed call injects, the project disables one and shadows
// another with an item of its id.
func TestWrittenPartsDecideAsTheWholeBuild(t *testing.T) {
	hermetic(t)
	files := synthetic.Files(600)
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	org := testrepo.New(t)
	s := newStore(t)
	for i, rel := range keys {
		if i < 100 {
			write(t, s, rel, string(files[rel]))
		} else {
			org.Write(rel, string(files[rel]))
		}
	}
	org.Commit("2026-01-05T10:00:00Z", "org store")
	bare := filepath.Join(t.TempDir(), "org.git")
	org.Git("clone", "-q", "--bare", org.Dir, bare)
	source := fmt.Sprintf("sources:\n  - {name: acme, url: 'file://%s', ref: main}\n", bare)
	write(t, s, ".lore/config.yaml", source)
	mustSync(t, s)
	var fired []match.Result
	for _, r := range decide(t, s, match.Call{Tool: "Bash", Command: synthetic.BenchCommand}).Injected {
		if strings.HasPrefix(r.File, "acme:") {
			fired = append(fired, r)
		}
	}
	if len(fired) < 2 {
		t.Fatalf("the timed call injects %d org items, want two to switch off", len(fired))
	}
	disabled, shadowed := fired[0], fired[1]
	write(t, s, ".lore/config.yaml", source+"disable: ["+disabled.ID+"]\n")
	write(t, s, ".lore/lessons/shadow.md", string(files[".lore/"+strings.TrimPrefix(shadowed.File, "acme:")]))
	if _, err := Build(s, BuildOptions{}); err != nil {
		t.Fatal(err)
	}

	m, err := manifest.Open(s.Path(lorepath.Manifest))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(m.Parts()) != 1 || m.Len() > 110 {
		t.Fatalf("the manifest has %d items of its own and %d parts", m.Len(), len(m.Parts()))
	}
	// lore build counts what the hook can select as lore match does.
	built, err := Build(s, BuildOptions{})
	whole, merr := Match(s, MatchOptions{Tool: "Bash", Command: "true", Dir: s.Root})
	if err != nil || merr != nil || !built.Fresh || built.Items != whole.Items {
		t.Fatalf("lore build counts %d items (%v, fresh %v), lore match %d (%v)", built.Items, err, built.Fresh, whole.Items, merr)
	}
	fromOrg := 0
	for _, c := range partCalls() {
		got, err := match.Decide(m, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := decided(got), decided(decide(t, s, c)); !reflect.DeepEqual(g, w) {
			t.Fatalf("%+v:\nwith the part %v\nwhole        %v", c, g, w)
		}
		for _, r := range got.Injected {
			switch {
			case r.ID == disabled.ID, r.ID == shadowed.ID && r.File != ".lore/lessons/shadow.md":
				t.Fatalf("%+v: the switched-off org item %s (%s) was injected", c, r.ID, r.File)
			case strings.HasPrefix(r.File, "acme:"):
				fromOrg++
			}
		}
	}
	if fromOrg == 0 {
		t.Fatal("no call injected an org item: the test proves nothing")
	}
}

// decide is `lore match`'s decision for the call: an in-memory build of
// every scope.
func decide(t *testing.T, s *gitstore.Store, c match.Call) match.Decision {
	t.Helper()
	r, err := Match(s, MatchOptions{Tool: c.Tool, Command: c.Command, Path: c.Path, Content: c.Content, Dir: s.Root})
	if err != nil {
		t.Fatal(err)
	}
	return r.Decision
}

// partCalls are calls on the synthetic store's tools, commands and paths.
func partCalls() []match.Call {
	var calls []match.Call
	for _, cmd := range []string{synthetic.BenchCommand, "git push --force origin main", "git rebase -i HEAD~3", "npm run build",
		"pytest --cov tests/integration", "docker build -t api .", "kubectl apply -n prod -f k8s/", "make release", "terraform apply"} {
		calls = append(calls, match.Call{Tool: "Bash", Command: cmd})
	}
	for _, p := range []string{"services/api/Dockerfile", "src/billing/models.py", "services/api/migrations/0001.py", ".github/workflows/ci.yml"} {
		calls = append(calls, match.Call{Tool: "Edit", Path: p, Content: "stamp = datetime.utcnow()\nexcept:\n"})
	}
	return calls
}

// decided is what a decision shows the agent: ids, texts and enforcement
// in order, and the ids it dropped.
func decided(d match.Decision) []string {
	var out []string
	for _, r := range d.Injected {
		out = append(out, fmt.Sprintf("%s %v %v %q %q", r.ID, r.Deny, r.Hold, r.Text, r.DenyReason))
	}
	for _, r := range d.Dropped {
		out = append(out, "dropped "+r.ID)
	}
	return out
}
