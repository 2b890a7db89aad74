package benchproc

import (
	"os/exec"
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
