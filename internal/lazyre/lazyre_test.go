package lazyre

import "testing"

func TestNew(t *testing.T) {
	re := New(`^a+$`)
	if first, again := re(), re(); first != again {
		t.Error("New compiled twice")
	}
	if !re().MatchString("aa") || re().MatchString("b") {
		t.Error("New compiled the wrong expression")
	}
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic on first use")
		}
	}()
	bad()
}
