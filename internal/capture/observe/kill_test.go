//go:build unix

package observe

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestKilledRenderHeals kills a real process (this test binary, re-run)
// with SIGKILL right after it wrote an artifact, then reconciles in this one.
func TestKilledRenderHeals(t *testing.T) {
	if dir := os.Getenv("OBSERVE_KILL_REPO"); dir != "" {
		afterArtifact = func(string) error { return syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		l := openLog(t, dir)
		l.Render(day0.Add(time.Hour))
		t.Fatal("still alive after SIGKILL")
	}
	l := newLog(t, "")
	const title = "go generate needs stringer on PATH"
	observe(t, l, Decision, title, 2, day0)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRenderHeals$")
	cmd.Env = append(os.Environ(), "OBSERVE_KILL_REPO="+l.s.Root)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
	m, err := l.readManifest()
	if err != nil || len(m.Entries) != 0 {
		t.Fatalf("manifest after the kill: %v %+v", err, m)
	}
	if o := load(t, l, Decision, title); o.Status != Ready {
		t.Fatalf("status after the kill: %s", o.Status)
	}
	rep, err := l.Reconcile(day0.Add(2 * time.Hour))
	if err != nil || len(rep.Healed) != 1 || rep.Healed[0] != ".lore/decisions/ADR-0001-go-generate-needs-stringer-on-path.md" {
		t.Fatalf("reconcile: %v %+v", err, rep)
	}
	if o := load(t, l, Decision, title); o.Status != Created {
		t.Fatalf("status after healing: %s", o.Status)
	}
}
