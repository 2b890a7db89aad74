package observe

import (
	"os"
	"testing"
	"time"
)

// TestRenderStagesUntilPromote: lore render writes a command and a skill
// under .lore/staged, where Claude Code does not load them; Activate
// (lore promote) moves each to .claude/ and the manifest follows, so a
// reconcile finds it unchanged rather than deleted.
func TestRenderStagesUntilPromote(t *testing.T) {
	l := newLog(t, "")
	observe(t, l, Workflow, "Release: tag, push, publish notes", 3, day0)
	observe(t, l, Workflow, "Release: tag, push, publish notes", 1, day0.Add(72*time.Hour))
	observe(t, l, Procedural, "Bisect a flaky test", 3, day0)
	observe(t, l, Procedural, "Bisect a flaky test", 1, day0.Add(5*24*time.Hour))
	if _, _, err := l.Render(day0.Add(6 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	const cmd, skill = ".claude/commands/lore/release-tag-push-publish-notes.md", ".claude/skills/bisect-a-flaky-test/SKILL.md"
	for _, p := range []string{cmd, skill} {
		if l.taken(p) {
			t.Errorf("%s written where Claude Code loads it, before review", p)
		}
		if !l.taken(Staged(p)) {
			t.Errorf("%s not staged", Staged(p))
		}
	}
	for q, want := range map[string]string{"release-tag-push-publish-notes": cmd, "bisect-a-flaky-test": skill} {
		from, to, found, err := l.Activate(q)
		if err != nil || !found || to != want || from != Staged(want) {
			t.Fatalf("Activate(%q) = %s -> %s, %v, %v", q, from, to, found, err)
		}
		if _, err := os.Stat(l.s.Path(to)); err != nil || l.taken(from) {
			t.Errorf("after promote: %s %v, staged copy left: %v", to, err, l.taken(from))
		}
	}
	if _, _, found, _ := l.Activate("release-tag-push-publish-notes"); found {
		t.Error("an active command is found as staged again")
	}
	rep, err := l.Reconcile(day0.Add(7 * 24 * time.Hour))
	if err != nil || rep.Unchanged != 2 || len(rep.Deleted) != 0 {
		t.Fatalf("reconcile after promote: %+v %v", rep, err)
	}
}
