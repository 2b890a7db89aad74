package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/store/sources"
	"github.com/lore-agents/lore/internal/testrepo"
)

func orgPlan(fix string) string {
	return "---\nid: 01JRQABE0000000000000000G1\nkind: lesson\ntitle: Plan before apply\nstatus: active\npriority: high\n" +
		"triggers:\n  tools: [Bash]\n  commands: ['\\bterraform\\s+apply\\b']\n---\n\n## Fix\n" + fix + "\n"
}

// The hook never fetches, and a lore sync that moves a source's copy
// makes the manifest stale: the next tool call injects the new text
// without a lore build (docs/design.md, Scopes and organisation stores).
func TestFreshAfterSync(t *testing.T) {
	r := newGitRepo(t)
	org := testrepo.New(t)
	org.Write(".lore/lessons/plan.md", orgPlan("Run terraform plan first."))
	org.Commit("2026-03-01T10:00:00Z", "org store")
	bare := filepath.Join(t.TempDir(), "org.git")
	org.Git("clone", "-q", "--bare", org.Dir, bare)
	org.Git("remote", "add", "origin", bare)
	r.Write(".lore/config.yaml", "sources:\n  - {name: acme, url: 'file://"+bare+"'}\n")

	r.expect("terraform apply", "", "Run terraform plan first.") // named, never fetched: nothing
	r.lore("sync")
	r.expect("terraform apply", "Run terraform plan first.")

	org.Write(".lore/lessons/plan.md", orgPlan("Run terraform plan -out=tfplan, then apply tfplan."))
	org.Commit("2026-03-02T10:00:00Z", "sharper")
	org.Git("push", "-q", "origin", "main")
	r.expect("terraform apply", "Run terraform plan first.") // the hook used the last fetch
	r.lore("sync")
	r.expect("terraform apply", "apply tfplan", "Run terraform plan first.")

	// A cache cleared in part takes the checkout in use, and its items
	// with it. Its return makes the manifest stale, whichever repository's
	// sync brings it back: another one naming the source shares the copy.
	other := &gitRepo{Repo: testrepo.New(t), t: t, home: r.home, env: r.env}
	other.lore("init", "--no-git-hooks")
	other.Write(".lore/config.yaml", "sources:\n  - {name: acme, url: 'file://"+bare+"'}\n")
	dir := sources.Dir(sources.Root(), config.Source{Name: "acme", URL: "file://" + bare})
	checkouts, err := filepath.Glob(filepath.Join(dir, "[0-9a-f]*[0-9a-f]"))
	if err != nil || len(checkouts) == 0 {
		t.Fatalf("no checkout: %v", err)
	}
	for _, c := range checkouts {
		if err := os.RemoveAll(c); err != nil {
			t.Fatal(err)
		}
	}
	r.expect("terraform apply", "", "apply tfplan")
	if out := other.lore("sync"); !strings.Contains(out, "acme: updated to") {
		t.Errorf("a sync that brought the checkout back: %s", out)
	}
	r.expect("terraform apply", "apply tfplan")
	for _, c := range checkouts {
		if err := os.RemoveAll(c); err != nil {
			t.Fatal(err)
		}
	}
	r.expect("terraform apply", "", "apply tfplan")
	r.lore("sync")
	r.expect("terraform apply", "apply tfplan")
}
