package match_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/synthetic"
)

// splitStore compiles a synthetic store of n items and builds it twice:
// merged, one manifest of its items; split, a manifest of a fifth of them
// (a few the user's) naming two parts, acme (six tenths) and infra (the
// rest), of organisation items. Each part has items the manifest switches
// off, absent from merged: disabled ones, and in infra a copy of a project
// item under its id (shadowed). The parts are indexed at the manifest's
// threshold (Index prunes by it), but carry settings of their own, which
// must not be read. off lists the switched-off items' titles.
func splitStore(t *testing.T, n int) (merged, split *manifest.Manifest, off map[string]bool) {
	t.Helper()
	src, _ := compile.Compile(compile.Input{Items: synthetic.Items(n), Config: config.Default()})
	set := src.Settings
	var top, all []manifest.Item
	parts := map[string][]manifest.Item{}
	offIDs := map[string][]string{}
	off = map[string]bool{}
	for k, it := range src.Items {
		it.Sources = nil // no files section: a part has none
		org := map[int]string{0: "acme", 1: "acme", 2: "acme", 3: "infra", 4: "infra"}[k%6]
		switch {
		case org == "" && k%7 == 0:
			it.Global, it.File = true, "user:"+it.File
		case org != "":
			it.Org, it.File = true, org+":"+it.File
		}
		if org != "" && k%13 == 0 {
			offIDs[org] = append(offIDs[org], it.ID)
			off[it.Title] = true
			parts[org] = append(parts[org], it)
			continue
		}
		all = append(all, it)
		if org == "" {
			top = append(top, it)
			continue
		}
		parts[org] = append(parts[org], it)
	}
	// infra has the first project item under its id, shadowed.
	shadow := top[0]
	shadow.Org, shadow.File, shadow.Title, shadow.Text = true, "infra:"+shadow.File, "shadowed copy", "### the shadowed copy"
	parts["infra"] = append(parts["infra"], shadow)
	offIDs["infra"] = append(offIDs["infra"], shadow.ID)
	off[shadow.Title] = true

	dir := t.TempDir()
	var named []manifest.Part
	for _, org := range []string{"acme", "infra"} {
		items := parts[org]
		own := manifest.Settings{BudgetBytes: 10, MaxItems: 1, Threshold: 3} // ignored
		p := manifest.Part{Path: filepath.Join(dir, org+".part"), Hash: [32]byte{byte(len(org))}, Off: offIDs[org]}
		write(t, p.Path, manifest.Source{Hash: p.Hash, Settings: own, Items: items, Buckets: match.Index(items, set)})
		named = append(named, p)
	}
	merged = open(t, filepath.Join(dir, "merged"), manifest.Source{Settings: set, Items: all, Buckets: match.Index(all, set)})
	split = open(t, filepath.Join(dir, "split"), manifest.Source{Settings: set, Items: top, Buckets: match.Index(top, set), Parts: named})
	return merged, split, off
}

func write(t *testing.T, path string, src manifest.Source) {
	t.Helper()
	data, err := manifest.Build(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, path string, src manifest.Source) *manifest.Manifest {
	t.Helper()
	write(t, path, src)
	m, err := manifest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// outcome is what a decision shows of its results, every exported field
// (Considered depends on the index's gates, which depend on the other
// items of a manifest, and is left out).
func outcome(d match.Decision) string {
	var b strings.Builder
	for k, rs := range [][]match.Result{d.Injected, d.Dropped, d.Rejected} {
		fmt.Fprintf(&b, "%s:\n", []string{"injected", "dropped", "rejected"}[k])
		for _, r := range rs {
			fmt.Fprintf(&b, "  %s %q %s score %.6f rel %.6f prio %d deny %v %q hold %v fallback %v\n    %q\n    %q\n",
				r.ID, r.Title, r.File, r.Score, r.Relevance, r.Priority, r.Deny, r.DenyReason, r.Hold, r.Fallback, r.Text, r.Reasons)
		}
	}
	return b.String()
}

// partCalls are calls that select items of every kind the synthetic store
// has: Bash lessons and denies, paths, content, keywords, none.
var partCalls = []match.Call{
	{Tool: "Bash", Command: synthetic.BenchCommand, Prompt: "run the unit tests"},
	{Tool: "Bash", Command: "git push --force origin main"},
	{Tool: "Bash", Command: "git commit -m 'never git push --force'"},
	{Tool: "Bash", Command: "npm install --legacy-peer-deps && npm run build"},
	{Tool: "Bash", Command: "docker build --no-cache -t api . && docker push registry.example.com/api"},
	{Tool: "Bash", Command: "kubectl --context prod apply -f k8s/prod.yaml", Prompt: "deploy to staging"},
	{Tool: "Bash", Command: "terraform apply -auto-approve --dry-run"},
	{Tool: "Bash", Command: "python -m pytest -k billing --cov tests/integration"},
	{Tool: "Bash", Command: "git merge hotfix && git push origin release", Prompt: "cut the release, version bump"},
	{Tool: "Edit", Path: "services/api/migrations/0001_init.py", Content: "stamp = datetime.utcnow()\ndata = client.fetch_json(url)\n"},
	{Tool: "Write", Path: "src/billing/models.py", Content: "except:\n    pass\n"},
	{Tool: "Read", Path: "src/payments/api.py"},
	{Tool: "Edit", Path: "k8s/prod/app.yaml", Content: "replicas: 3\n"},
	{Tool: "Edit", Path: "Dockerfile"},
	{Tool: "WebSearch", Prompt: "database migration rollback"},
}

var partPrompts = []string{"we need a release and a version bump", "deploy to staging tonight", "rotate the keys and update the changelog", "hello"}

// TestPartsAsIfMerged: a manifest with parts decides as one manifest of
// the same items would, call for call, fresh and in a session that has
// seen a third of the items.
func TestPartsAsIfMerged(t *testing.T) {
	merged, split, off := splitStore(t, 3000)
	seenIDs := map[string]bool{}
	for i := range merged.Len() {
		if it, err := merged.Item(i); err == nil && i%3 == 0 {
			seenIDs[it.ID] = true
		}
	}
	sessions := map[string]match.Seen{"fresh": nil, "seen": func(id []byte) bool { return seenIDs[string(id)] }}
	fromParts, partDenies := 0, 0
	check := func(what string, run func(*manifest.Manifest) (match.Decision, error)) {
		t.Helper()
		want, err1 := run(merged)
		got, err2 := run(split)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", what, err1, err2)
		}
		if a, b := outcome(want), outcome(got); a != b {
			t.Errorf("%s:\nmerged %s\nsplit %s", what, a, b)
		}
		for _, r := range append(got.Injected, got.Rejected...) {
			if off[r.Title] {
				t.Errorf("%s: %s is switched off and was scored", what, r.ID)
			}
		}
		for _, r := range got.Injected {
			if strings.HasPrefix(r.File, "acme:") || strings.HasPrefix(r.File, "infra:") {
				fromParts++
				if r.Deny {
					partDenies++
				}
			}
		}
	}
	for name, seen := range sessions {
		for _, c := range partCalls {
			check(fmt.Sprintf("Decide %s %+v", name, c), func(m *manifest.Manifest) (match.Decision, error) { return match.Decide(m, c, seen) })
		}
		for _, p := range partPrompts {
			check(fmt.Sprintf("DecidePrompt %s %q", name, p), func(m *manifest.Manifest) (match.Decision, error) {
				return match.DecidePrompt(m, p, []string{"database migration", p}, seen)
			})
		}
	}
	for _, c := range partCalls[:5] {
		check(fmt.Sprintf("Explain %+v", c), func(m *manifest.Manifest) (match.Decision, error) { return match.Explain(m, c) })
	}
	// The comparison is worth something: the parts' items win calls, deny
	// among them.
	if fromParts < 20 || partDenies == 0 {
		t.Errorf("%d injections from the parts, %d denies: the split shows too little", fromParts, partDenies)
	}
}

// TestPartsConsidered: Explain counts the candidates of the manifest and
// of its parts, not those switched off, and Result.Changed never looks a
// part's item up in the manifest's files.
func TestPartsConsidered(t *testing.T) {
	_, split, off := splitStore(t, 600)
	c := match.Call{Tool: "Bash", Command: synthetic.BenchCommand}
	d, err := match.Explain(split, c)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, m := range append([]*manifest.Manifest{split}, split.Parts()...) {
		idx, err := m.Candidates("Bash", synthetic.BenchCommand, "", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range idx {
			if h, err := m.Head(i); err != nil || !m.SwitchedOff(h) {
				want++
			}
		}
	}
	if d.Considered != want || want == 0 {
		t.Errorf("Explain considered %d, want %d", d.Considered, want)
	}
	total := len(d.Injected) + len(d.Dropped) + len(d.Rejected)
	if all := split.Len() + split.Parts()[0].Len() + split.Parts()[1].Len(); total != all-len(off) {
		t.Errorf("Explain listed %d items of %d, %d of them switched off", total, all, len(off))
	}
	for _, r := range d.Injected {
		if p, err := r.Changed(t.TempDir()); p != "" || err != nil {
			t.Errorf("%s changed: %q %v", r.ID, p, err)
		}
	}
}
