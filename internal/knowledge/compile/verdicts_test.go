package compile

import (
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func verdictItems(t *testing.T) []*markdown.Item {
	t.Helper()
	var out []*markdown.Item
	for rel, doc := range map[string]string{
		"lessons/ok.md":     lessonHead + "Fine.\n",
		"lessons/bad.md":    "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V2\nkind: lesson\ntitle: t\nstatus: bogus\n---\n\n## Fix\nx\n",
		"lessons/unsafe.md": "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V3\nkind: lesson\ntitle: t\nstatus: active\n---\n\n## Fix\nUse sk-proj-abc123DEF456ghi789JKL0.\n",
	} {
		it, err := markdown.Parse(rel, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
	return out
}

// TestVerdictsRoundTrip: saved verdicts load back equal to check's, are
// used without checking again, are dropped for another salt, and a
// truncated file loads as none (never a panic, never a partial set).
func TestVerdictsRoundTrip(t *testing.T) {
	items := verdictItems(t)
	v := LoadVerdicts(nil, "a")
	checkAll(v, items)
	if !v.Changed() {
		t.Fatal("a first build saves nothing")
	}
	saved := v.Bytes()
	again := LoadVerdicts(saved, "a")
	bad, unsafe := 0, 0
	for _, r := range again.old {
		bad = bad + min(len(r.Errs), 1)
		if r.Unsafe {
			unsafe++
		}
	}
	if bad != 2 || unsafe != 1 {
		t.Fatalf("%d verdicts with errors, %d unsafe; want 2 and 1", bad, unsafe)
	}
	for _, it := range items {
		errs, unsafe := again.check(it, digest(it))
		wantErrs, wantUnsafe := check(it)
		if !reflect.DeepEqual(errs, wantErrs) || unsafe != wantUnsafe {
			t.Errorf("%s: loaded %v %v, checked %v %v", it.Path, errs, unsafe, wantErrs, wantUnsafe)
		}
	}
	if again.Changed() || len(again.old) != 3 {
		t.Fatalf("unchanged items were checked again (%d loaded)", len(again.old))
	}
	if n := len(LoadVerdicts(saved, "b").old); n != 0 {
		t.Errorf("another salt kept %d verdicts", n)
	}
	for i := range saved {
		if n := len(LoadVerdicts(saved[:i], "a").old); n != 0 {
			t.Fatalf("cut at %d: %d verdicts", i, n)
		}
	}
	one := LoadVerdicts(saved, "a")
	checkAll(one, items[:2]) // the third file went away
	if !one.Changed() || len(LoadVerdicts(one.Bytes(), "a").old) != 2 {
		t.Error("a removed item's verdict was kept")
	}
}

func checkAll(v *Verdicts, items []*markdown.Item) {
	for _, it := range items {
		v.check(it, digest(it))
	}
}
