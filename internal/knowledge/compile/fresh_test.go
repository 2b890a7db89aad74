package compile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/synthetic"
)

const denyFile = `---
id: 01JDENY0000000000000000000
kind: pitfall
ref: PF-0999
title: Force push to main
status: active
priority: critical
enforce: deny
triggers:
  tools: [Bash]
  commands: ['git\s+push\s+.*--force']
---

## Issue
Rewrites shared history.

## Avoid
Use --force-with-lease on a branch.
`

// realStore writes n synthetic items, a deny pitfall, a config and a
// learnings file under a fresh root and builds them as lore build does.
func realStore(t *testing.T, n int) (root string, data []byte) {
	t.Helper()
	root = t.TempDir()
	files := synthetic.Files(n)
	files[".lore/pitfalls/PF-0999-force.md"] = []byte(denyFile)
	files[".lore/config.yaml"] = []byte("inject:\n  maxItems: 100\n  budgetBytes: 1048576\n")
	files[".lore/learnings.md"] = []byte(strings.Repeat("preamble\n", 10) + "## Cache the wheel\nIt is slow.\n")
	for rel, b := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap := TakeSnapshot(root, nil, ".lore/learnings.md")
	cfg := config.Default()
	cfg.Inject.MaxItems, cfg.Inject.BudgetBytes = 100, 1<<20 // every match is injected: its text is read
	in := Input{Config: cfg, Snapshot: snap, Learnings: files[".lore/learnings.md"]}
	for rel, b := range files {
		if strings.HasSuffix(rel, ".md") && !strings.HasSuffix(rel, "learnings.md") {
			it, err := markdown.Parse(rel, b)
			if err != nil {
				t.Fatal(err)
			}
			in.Items = append(in.Items, it)
		}
	}
	data, rep, err := Build(in)
	if err != nil || len(rep.Excluded) > 0 || rep.Compiled != n+1 {
		t.Fatalf("build: %v, %+v", err, rep)
	}
	return root, data
}

// answers is everything a hook call can take from the manifest for calls
// that fire every item: decisions with texts and deny reasons, the
// SessionStart block, priorities, and the freshness checks.
func answers(root string, m *manifest.Manifest, calls []match.Call) (string, error) {
	var b strings.Builder
	for _, c := range calls {
		var d match.Decision
		var err error
		if c.Tool == "" {
			d, err = match.DecidePrompt(m, c.Prompt, nil, nil)
		} else {
			d, err = match.Decide(m, c, nil)
		}
		if err != nil {
			return "", err
		}
		for _, r := range d.Injected {
			p, err := m.ItemChanged(root, r.Item())
			if err != nil {
				return "", err
			}
			pr, ok, err := m.Priority(r.ID)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s %q %q %v %q %d %v\n", r.ID, r.Text, r.DenyReason, r.Deny, p, pr, ok)
		}
		for _, r := range d.Dropped {
			fmt.Fprintf(&b, "dropped %s\n", r.ID)
		}
	}
	s, err := m.SessionStart()
	if err != nil {
		return "", err
	}
	p, err := m.Changed(root)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%q %q %+v", s, p, m.Settings())
	return b.String(), nil
}

// callsFor makes, for each item of synthetic.Files(n), a call that its
// triggers should select, read off its title ("Watch out with <subject>
// (i)"): the subject as a shell line for Bash items, a path the glob
// matches for file items, a Write of the code for content items, a prompt with the phrases for keyword items;
// plus the benchmarks' command and a forced push for the deny pitfall.
func callsFor(n int) []match.Call {
	shell := []string{"git push --force origin main", synthetic.BenchCommand}
	var prompt []string
	calls := []match.Call{{Tool: "WebSearch"}}
	glob := strings.NewReplacer("**/", "a/b/", "/**", "/c/d.txt", "*", "x")
	for rel, data := range synthetic.Files(n) {
		it, err := markdown.Parse(rel, data)
		if err != nil {
			continue
		}
		subject, _, _ := strings.Cut(strings.TrimPrefix(it.Title, "Watch out with "), " (")
		switch {
		case strings.HasPrefix(subject, "editing "):
			calls = append(calls, match.Call{Tool: "Edit", Path: glob.Replace(strings.TrimPrefix(subject, "editing "))})
		case strings.HasPrefix(subject, "adding "):
			calls = append(calls, match.Call{Tool: "Write", Path: "src/app/x.py", Content: strings.TrimPrefix(subject, "adding ")})
		case strings.HasPrefix(subject, "code under "):
			calls = append(calls, match.Call{Tool: "Read", Path: glob.Replace(strings.TrimPrefix(subject, "code under "))})
		case strings.HasPrefix(subject, "requests about "):
			prompt = append(prompt, strings.TrimPrefix(subject, "requests about "))
		default:
			shell = append(shell, subject)
		}
	}
	sort.Strings(shell) // map order: the same calls every run
	return append(calls, match.Call{Tool: "Bash", Command: strings.Join(shell, "; ")},
		match.Call{Prompt: "please " + strings.Join(prompt, " and ")})
}

// TestEveryByteIsChecked flips every byte of a real manifest: Verify must
// catch each flip (every byte is under a checksum), and the reads a hook
// call makes must either report the damage or answer exactly as before.
func TestEveryByteIsChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite: flips every byte of a manifest; make test runs it")
	}
	const n = 20
	root, data := realStore(t, n)
	calls := callsFor(n)
	m, err := manifest.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	want, err := answers(root, m, calls)
	if err != nil {
		t.Fatal(err)
	}
	// Most items: a low-priority item never reaches the threshold, and a
	// subject read off a title does not always match its own pattern.
	if got := strings.Count("\n"+want, "\n01"); got < (n+1)*2/3 {
		t.Fatalf("the calls inject %d of the %d items:\n%s", got, n+1, want)
	}
	silent, detected := 0, 0
	for off := range data {
		for _, x := range []byte{0x01 << (off % 8)} { // every bit position, across the bytes
			b := bytes.Clone(data)
			b[off] ^= x
			m, err := manifest.Parse(b)
			if err != nil {
				detected++
				continue
			}
			if m.Verify() == nil {
				t.Errorf("byte %d ^ %#x: Verify found nothing", off, x)
			}
			got, err := answers(root, m, calls)
			switch {
			case err != nil:
				if !errors.Is(err, manifest.ErrCorrupt) {
					t.Errorf("byte %d ^ %#x: %v is not ErrCorrupt", off, x, err)
				}
				detected++
			case got != want:
				t.Errorf("byte %d ^ %#x changed the answer silently", off, x)
			default:
				silent++ // a byte these calls never read: harmless to them
			}
		}
	}
	t.Logf("%d bytes: %d flips detected on the hook's path, %d harmless to these calls (and caught by Verify)", len(data), detected, silent)
}

// TestSnapshotWaitsOutTheRacyWindow: a source changed just now is stat'ed
// only once its timestamps are older than the window, so a change right
// after the build always gets a different timestamp.
func TestSnapshotWaitsOutTheRacyWindow(t *testing.T) {
	root, _ := realStore(t, 3)
	p := filepath.Join(root, ".lore/lessons/pytest-hangs.md")
	if err := os.WriteFile(p, []byte(denyFile), 0o644); err != nil {
		t.Fatal(err)
	}
	// Stamped now, after the write, so that the change is always inside
	// the window, however long the write took on a loaded machine.
	start := time.Now()
	if err := os.Chtimes(p, start, start); err != nil {
		t.Fatal(err)
	}
	s := TakeSnapshot(root, nil, ".lore/learnings.md")
	if age := start.Sub(s.newest()); age > racyWindow {
		t.Fatalf("newest source is %v old: the test did not exercise the window", age)
	}
	if time.Since(s.newest()) < racyWindow {
		t.Errorf("snapshot returned %v after the newest change, under the %v window", time.Since(s.newest()), racyWindow)
	}
	var paths []string
	for _, w := range s.Watch {
		paths = append(paths, w.Path)
	}
	sort.Strings(paths)
	want := []string{".lore/cache/edited", ".lore/config.yaml", ".lore/decisions", ".lore/learnings.md", ".lore/lessons", ".lore/pitfalls", ".lore/skills"}
	if fmt.Sprint(paths) != fmt.Sprint(want) {
		t.Errorf("watched %v, want %v", paths, want)
	}
	if i, ok := s.files[".lore/lessons/pytest-hangs.md"]; !ok || s.Files[i].Stat.Absent || s.Files[i].Stat.Size != uint64(len(denyFile)) {
		t.Errorf("files %+v", s.Files)
	}
}
