package review

import (
	"testing"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

// TestDestructiveCommands: the commands whose first run cannot be taken
// back, as agents write them, and look-alikes that can be.
func TestDestructiveCommands(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rm -rf build/":                          true,
		"cd /tmp && rm -fr node_modules":         true,
		"rm -r -f dist":                          true,
		"git push --force origin main":           true,
		"git push -f":                            true,
		"git push origin +main":                  true,
		"git reset --hard HEAD~1":                true,
		"git clean -fdx":                         true,
		"git checkout -- .":                      true,
		"git restore .":                          true,
		"git branch -D feature":                  true,
		"git stash drop":                         true,
		`psql -c "DROP TABLE users"`:             true,
		`sqlite3 app.db "delete from sessions;"`: true,
		"TRUNCATE TABLE events":                  true,
		"dd if=img.iso of=/dev/sdb bs=4M":        true,
		"kubectl delete namespace staging":       true,
		"terraform destroy -auto-approve":        true,
		"docker volume prune -f":                 true,
		"find . -name '*.pyc' -delete":           true,

		"rm notes.txt":    false,
		"rm -f notes.txt": false,
		"git push --force-with-lease origin main":  false,
		"git push origin main":                     false,
		"git reset HEAD~1":                         false,
		"git checkout -b feature":                  false,
		"git branch -d merged":                     false,
		`psql -c "DELETE FROM users WHERE id = 3"`: false,
		"pytest -x":                                false,
		"find . -name '*.pyc'":                     false,
	} {
		if got := isDestructive(cmd); got != want {
			t.Errorf("%q: destructive %v, want %v", cmd, got, want)
		}
	}
}

// TestDraftsProposeOnce: a draft whose incident hung, lost data or ran a
// destructive command is written with enforce: once, and is a valid item
// lint passes; other drafts, and drafts without a command to hold, are
// not.
func TestDraftsProposeOnce(t *testing.T) {
	base := cand("t", "m", 5)
	for _, tc := range []struct {
		what string
		edit func(*scan.Candidate)
		want string
	}{
		{"a hang", func(c *scan.Candidate) { c.Tier, c.Signal, c.Trigger = 2, scan.SignalHang, "npm run dev" }, "once"},
		{"a #lesson tagged severity:hang", func(c *scan.Candidate) { c.Tags = append(c.Tags, "severity:hang") }, "once"},
		{"a #lesson tagged severity:data-loss", func(c *scan.Candidate) { c.Tags = []string{"severity:data-loss"} }, "once"},
		{"a destructive command", func(c *scan.Candidate) { c.Trigger = "git reset --hard origin/main" }, "once"},
		{"an ordinary lesson", func(*scan.Candidate) {}, ""},
		{"a hang with no command", func(c *scan.Candidate) { c.Signal, c.Tool, c.Trigger = scan.SignalHang, "Read", "" }, ""},
	} {
		c := base
		c.Tags = append([]string(nil), base.Tags...)
		tc.edit(&c)
		data, err := Compose(c, markdown.KindLesson, "01JQXYZ8K2M4N6P8Q0R2S4T6V8", "", now)
		if err != nil {
			t.Fatal(err)
		}
		it, err := markdown.Parse(".lore/lessons/t.md", data)
		if err != nil {
			t.Fatal(err)
		}
		if it.Enforce != tc.want {
			t.Errorf("%s: enforce %q, want %q\n%s", tc.what, it.Enforce, tc.want, data)
		}
		if errs := markdown.Validate(it); len(errs) != 0 {
			t.Errorf("%s: %v", tc.what, errs)
		}
		if fs := lint.Safety(it); len(fs) != 0 {
			t.Errorf("%s: lint: %v", tc.what, fs)
		}
	}
}

// TestScannedHangDraftHolds: the hangs a scan finds in real recorded
// sessions (a Claude Code dev server, a Codex e2e run) become drafts
// proposed with enforce: once.
func TestScannedHangDraftHolds(t *testing.T) {
	s := testrepo.NewStore(t)
	files, err := scan.Files([]string{"../scan/testdata/labelled"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := scan.Scan(files, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var hangs []scan.Candidate
	for _, c := range res.Candidates {
		if c.Signal == scan.SignalHang {
			hangs = append(hangs, c)
		}
	}
	if len(hangs) != 2 {
		t.Fatalf("%d hangs in the labelled sessions, want 2", len(hangs))
	}
	w, err := Write(s, hangs, now)
	if err != nil || len(w) != 2 {
		t.Fatalf("wrote %d drafts: %v", len(w), err)
	}
	for _, d := range w {
		it, err := s.LoadFile(d.Path)
		if err != nil || it.Enforce != markdown.EnforceOnce {
			t.Errorf("%s (%q): enforce %q, %v", d.Path, d.Candidate.Trigger, it.Enforce, err)
		}
	}
}
