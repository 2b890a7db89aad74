package gitstore_test

import (
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/testrepo"
)

func item(id, status string) string {
	return "---\nid: " + id + "\nkind: lesson\ntitle: Lesson " + id[len(id)-4:] + "\nstatus: " + status +
		"\npriority: high\ntriggers:\n  tools: [Bash]\n  commands: ['^pytest']\n---\n## Mistake\nRan it.\n\n## Fix\nDo it right.\n"
}

const (
	idA = "01JCZ00000000000000000AAAA"
	idB = "01JCZ00000000000000000BBBB"
	idC = "01JCZ00000000000000000CCCC"
)

// The date an item became active is the author date of the commit that
// made it active: not the draft's commit, not a later edit, not the merge
// that brought it in, and an item never active has none.
func TestActivationsAreTheCommitThatMadeTheItemActive(t *testing.T) {
	r := testrepo.New(t)
	r.Write(".lore/lessons/a.md", item(idA, "draft"))
	r.Write(".lore/lessons/c.md", item(idC, "draft"))
	r.Commit("2026-01-05T10:00:00Z", "draft a and c")
	r.Write(".lore/lessons/a.md", item(idA, "active"))
	r.Commit("2026-02-01T10:00:00Z", "promote a")
	r.Write(".lore/lessons/a.md", item(idA, "active")+"\nMore.\n")
	r.Commit("2026-03-01T10:00:00Z", "edit a")
	// b is promoted on a branch and merged later.
	r.Git("checkout", "-q", "-b", "side")
	r.Write(".lore/pitfalls/b.md", item(idB, "active"))
	r.Commit("2026-03-10T10:00:00Z", "add b")
	r.Git("checkout", "-q", "-")
	r.Write("README.md", "x\n")
	r.Commit("2026-03-11T10:00:00Z", "unrelated")
	r.Git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	// a moves folder: still the same activation.
	r.Git("mv", ".lore/lessons/a.md", ".lore/pitfalls/a.md")
	r.Commit("2026-04-01T10:00:00Z", "move a")

	got, err := r.Store().Activations()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{idA: "2026-02-01", idB: "2026-03-10"}
	for id, day := range want {
		if d, ok := got[id]; !ok || d.UTC().Format(time.DateOnly) != day {
			t.Errorf("%s: activated %v (%v), want %s", id, d, ok, day)
		}
	}
	if d, ok := got[idC]; ok {
		t.Errorf("a draft never active has an activation: %v", d)
	}
}

func TestActivationsWithoutCommits(t *testing.T) {
	r := testrepo.New(t)
	got, err := r.Store().Activations()
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}
