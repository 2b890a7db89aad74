package benchproc

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3}
	if got := Median(ds); got != 3 {
		t.Errorf("Median = %v, want 3", got)
	}
	if ds[0] != 5 {
		t.Error("Median sorted its argument in place")
	}
	if got := Median([]time.Duration{2, 1}); got != 2 {
		t.Errorf("Median of two = %v, want the upper 2", got)
	}
}

func TestRun(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	d, out := Run(t, exec.Command(sh, "-c", "echo out; echo err >&2"))
	if string(out) != "out\nerr\n" || d <= 0 {
		t.Errorf("Run = %v, %q", d, out)
	}
}

// Build's binaries need no dynamic loader, even for a program that links
// os/user, which takes libc through cgo when cgo is on.
func TestBuildIsStatic(t *testing.T) {
	src := filepath.Join(t.TempDir(), "user.go")
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"os/user\"\n)\n\nfunc main() { fmt.Println(user.Current()) }\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	Build(t, out, src)
	f, err := elf.Open(filepath.Join(out, "user"))
	if err != nil {
		t.Fatalf("%v (an ELF platform is where lore's benchmarks run)", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary asks for a dynamic loader")
		}
	}
}

// Settle writes the same bytes, executable, as a new file.
func TestSettle(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "linked"), filepath.Join(dir, "settled")
	if err := os.WriteFile(from, []byte("#!/bin/sh\necho settled\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	Settle(t, from, to)
	out, err := exec.Command(to).Output()
	if err != nil || string(out) != "settled\n" {
		t.Errorf("the settled copy ran: %q %v", out, err)
	}
}
