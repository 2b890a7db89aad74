package githooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/integrate/githooks"
)

// A team's hooks folder as many are written: each hook sources a helper
// next to it through its own $0, and records the name it ran under.
const (
	commonSh   = "record() { echo \"$(basename \"$0\") $1\" >>\"$CHAIN_LOG\"; }\n"
	shHook     = "#!/bin/sh\nset -e\n. \"$(dirname \"$0\")/common.sh\"\nrecord sh\n"
	bashHook   = "#!/usr/bin/env bash\nset -euo pipefail\nsource \"$(dirname \"${BASH_SOURCE[0]}\")/common.sh\"\n. \"$(dirname \"$0\")/common.sh\"\nrecord bash\n"
	pythonHook = "#!/usr/bin/env python3\nimport os, sys\nhere = os.path.dirname(sys.argv[0])\nassert os.path.exists(os.path.join(here, 'common.sh')), here\nopen(os.environ['CHAIN_LOG'], 'a').write('post-merge python\\n')\n"
)

// TestChainedHooksSeeTheirOwnFolder: a chained hook that finds its helper
// through "$(dirname "$0")" keeps working after install, under its own
// name, in every layout git runs hooks from: the default .git/hooks,
// core.hooksPath relative and absolute, and a linked worktree.
func TestChainedHooksSeeTheirOwnFolder(t *testing.T) {
	for _, layout := range []string{"default", "relative", "absolute", "worktree"} {
		t.Run(layout, func(t *testing.T) {
			e := newEnv(t)
			tg, run := e.target(), e.dir
			switch layout {
			case "relative":
				e.git("config", "core.hooksPath", ".githooks")
				tg.Dir = filepath.Join(e.dir, ".githooks")
			case "absolute":
				tg.Dir = filepath.Join(e.dir, "ci", "hooks")
				e.git("config", "core.hooksPath", tg.Dir)
			case "worktree":
				run = filepath.Join(filepath.Dir(e.dir), "wt")
				e.git("worktree", "add", "-q", "-b", "wt", run)
			}
			log := filepath.Join(t.TempDir(), "chain.log")
			t.Setenv("CHAIN_LOG", log)
			must(t, os.MkdirAll(tg.Dir, 0o755))
			must(t, os.WriteFile(filepath.Join(tg.Dir, "common.sh"), []byte(commonSh), 0o644))
			must(t, os.WriteFile(filepath.Join(tg.Dir, "post-checkout"), []byte(shHook), 0o755))
			must(t, os.WriteFile(filepath.Join(tg.Dir, "post-commit"), []byte(bashHook), 0o755))
			must(t, os.WriteFile(filepath.Join(tg.Dir, "post-merge"), []byte(pythonHook), 0o755))
			if _, err := githooks.Install(tg); err != nil {
				t.Fatal(err)
			}
			if out, err := e.run(run, "", "checkout", "-q", "-b", "x"); err != nil {
				t.Fatalf("git checkout -b x after install: %v\n%s", err, out)
			}
			must(t, os.WriteFile(filepath.Join(run, "f.txt"), []byte("f\n"), 0o644))
			e.gitIn(run, "add", "f.txt")
			if out, err := e.run(run, "", "commit", "-q", "-m", "f"); err != nil {
				t.Fatalf("git commit after install: %v\n%s", err, out)
			}
			e.gitIn(run, "checkout", "-q", "-b", "y", "HEAD^")
			if out, err := e.run(run, "", "merge", "-q", "--no-edit", "x"); err != nil {
				t.Fatalf("git merge after install: %v\n%s", err, out)
			}
			data, _ := os.ReadFile(log)
			for _, want := range []string{"post-checkout sh", "post-commit bash", "post-merge python"} {
				if !strings.Contains(string(data), want+"\n") {
					t.Errorf("the chained hook did not run as %q:\n%s", want, data)
				}
			}
		})
	}
}

// TestHooksFolderOutsideTheRepository: a core.hooksPath outside the
// repository (a global one serves every repository) is never written:
// lore's scripts go to the repository's private folder, each hook's step
// gives the line that runs them, and that line does nothing in a
// repository without lore.
func TestHooksFolderOutsideTheRepository(t *testing.T) {
	e := newEnv(t)
	global := filepath.Join(t.TempDir(), "global-hooks")
	must(t, os.MkdirAll(global, 0o755))
	must(t, os.WriteFile(filepath.Join(global, "post-commit"), []byte("#!/bin/sh\necho global >/dev/null\n"), 0o755))
	e.git("config", "--global", "core.hooksPath", global)
	tg := e.target()
	tg.Dir = global
	before := snapshot(t, global)

	r, err := githooks.Install(tg)
	must(t, err)
	if after := snapshot(t, global); !equal(after, before) {
		t.Fatalf("install wrote into the hooks folder outside the repository:\nbefore %v\nafter  %v", before, after)
	}
	if got := states(r); got != "post-commit=managed post-merge=managed post-checkout=managed post-rewrite=managed" {
		t.Fatalf("install: %s", got)
	}
	step := r.Hooks[0].Step
	if !strings.Contains(step, filepath.Join(global, "post-commit")) {
		t.Fatalf("step %q does not name the hook file", step)
	}
	line := step[strings.Index(step, ": ")+2:]

	// The user adds the line to the global post-commit: this repository
	// builds, and a repository without lore commits as before.
	must(t, os.WriteFile(filepath.Join(global, "post-commit"), []byte("#!/bin/sh\n"+line+"\n"), 0o755))
	if st, _ := githooks.Status(tg); st.Hooks[0].State != githooks.Wired {
		t.Errorf("status after wiring post-commit: %s", states(st))
	}
	e.write(".lore/lessons/g.md", "g\n")
	e.commit("through the global folder")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("commit through the global folder: builds %v, want 1", b)
	}
	other := filepath.Join(t.TempDir(), "other")
	must(t, os.MkdirAll(other, 0o755))
	e.gitIn(other, "init", "-q")
	if out, err := e.run(other, "", "commit", "-q", "--allow-empty", "-m", "x"); err != nil || out != "" {
		t.Errorf("a commit in a repository without lore: %v %q", err, out)
	}
}
