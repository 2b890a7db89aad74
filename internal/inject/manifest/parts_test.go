package manifest

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// orgPart is a part of two org items (01D, 01E) written to dir, and the
// Part that names it.
func orgPart(t *testing.T, dir string) (Source, Part) {
	t.Helper()
	src := Source{
		Hash:     [32]byte{9, 9},
		Settings: Settings{BudgetBytes: 1, MaxItems: 1, Threshold: 0.99}, // never read
		Items: []Item{
			{ID: "01E", Title: "terraform apply", File: "acme:pitfalls/tf.md", Status: "active", Priority: 9, Confidence: 1, Org: true, Deny: true,
				Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`terraform\s+apply`}}, Text: "### Pitfall: terraform apply", Fix: "plan first"},
			{ID: "01D", Title: "pytest org", File: "acme:lessons/pytest.md", Status: "active", Priority: 6, Confidence: 1, Org: true,
				Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`\bpytest\b`}}, Text: "### Lesson: org pytest"},
		},
		Buckets: []Bucket{{Tool: "Bash", Target: []Gate{{Item: 0, Literals: []string{"terraform"}}, {Item: 1, Literals: []string{"pytest"}}}}},
	}
	path := filepath.Join(dir, "acme.part")
	if err := os.WriteFile(path, mustBuild(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	return src, Part{Path: path, Hash: src.Hash}
}

// withPart is sample() naming part, written to dir and opened.
func withPart(t *testing.T, dir string, part Part) (*Manifest, error) {
	t.Helper()
	src := sample()
	src.Parts = []Part{part}
	path := filepath.Join(dir, "manifest")
	if err := os.WriteFile(path, mustBuild(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(path)
}

func TestPartsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	_, part := orgPart(t, dir)
	part.Off = []string{"01D", "01C", "01D"} // unsorted, repeated: Build sorts them
	m, err := withPart(t, dir, part)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := m.partList()
	if err != nil || len(got) != 1 || got[0].Path != part.Path || got[0].Hash != part.Hash || got[0].Off != nil {
		t.Fatalf("parts = %+v (%v), want %s", got, err, part.Path)
	}
	var off []string
	for k := range got[0].off.len() {
		off = append(off, string(got[0].off.at(k)))
	}
	if want := []string{"01C", "01D"}; !reflect.DeepEqual(off, want) {
		t.Errorf("off = %q, want %q", off, want)
	}
	if len(m.Parts()) != 1 || m.Len() != 3 || m.Parts()[0].Len() != 2 {
		t.Fatalf("%d parts, %d items of its own", len(m.Parts()), m.Len())
	}
	p := m.Parts()[0]
	// Both are candidates; the switched-off one says so from its head.
	cands := candidates(t, p, "Bash", "pytest && terraform apply", "")
	if got := ids(t, p, cands); !reflect.DeepEqual(got, []string{"01D", "01E"}) {
		t.Errorf("part candidates %v, want [01D 01E]", got)
	}
	for _, i := range cands {
		h, err := p.Head(i)
		if err != nil {
			t.Fatal(err)
		}
		if p.SwitchedOff(h) != (string(h.id) == "01D") {
			t.Errorf("SwitchedOff(%s) = %v", h.id, p.SwitchedOff(h))
		}
	}
	if !p.switchedOff([]byte("01D")) || p.switchedOff([]byte("01E")) || m.switchedOff([]byte("01D")) {
		t.Error("switchedOff: want 01D of the part alone")
	}
	if all, err := p.All(); err != nil || !reflect.DeepEqual(ids(t, p, all), []string{"01E"}) {
		t.Errorf("part All = %v, %v; want [01E]", ids(t, p, all), err)
	}
	if all, err := m.All(); err != nil || len(all) != 3 {
		t.Errorf("All = %v, %v; want the 3 items", all, err)
	}
	// ByID finds the part's items, not a switched-off one, the
	// manifest's own first.
	for id, want := range map[string]int{"01E": 9, "01A": 9, "01D": 0} {
		if p, ok, err := m.Priority(id); err != nil || ok != (want > 0) || p != want {
			t.Errorf("Priority(%s) = %d, %v, %v; want %d", id, p, ok, err, want)
		}
	}
	// A part's item never changed: nothing is looked up in the
	// manifest's files section.
	it, _, _ := m.ByID("01E")
	it.srcOffs = []uint32{1 << 30}
	if path, err := p.ItemChanged(dir, it); path != "" || err != nil {
		t.Errorf("part ItemChanged = %q, %v", path, err)
	}
	if err := m.Verify(); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if err := m.Close(); err != nil || m.Parts() != nil {
		t.Errorf("Close: %v, parts %v", err, m.Parts())
	}
}

func TestPartRefused(t *testing.T) {
	dir := t.TempDir()
	_, good := orgPart(t, dir)
	nested := filepath.Join(dir, "nested.part")
	src := sample()
	src.Parts = []Part{good}
	if err := os.WriteFile(nested, mustBuild(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	oldVersion := filepath.Join(dir, "old.part")
	b, _ := os.ReadFile(good.Path)
	binary.LittleEndian.PutUint32(b[hVersion:], Version-1)
	if err := os.WriteFile(oldVersion, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		part Part
		says string
	}{
		"missing":      {Part{Path: filepath.Join(dir, "gone.part"), Hash: good.Hash}, "gone.part is missing"},
		"wrong hash":   {Part{Path: good.Path, Hash: [32]byte{1}}, "not the part it was built with"},
		"own parts":    {Part{Path: nested, Hash: src.Hash}, "names parts of its own"},
		"old version":  {Part{Path: oldVersion, Hash: good.Hash}, "version 8"},
		"another path": {Part{Path: filepath.Join(dir, "manifest"), Hash: good.Hash}, "manifest"},
	} {
		_, err := withPart(t, dir, tc.part)
		if !errors.Is(err, ErrPartMissing) || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want ErrPartMissing saying %q", name, err, tc.says)
		}
	}
	// lore doctor calls it stale, not corrupt or missing.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".lore", "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	src = sample()
	src.Parts = []Part{{Path: filepath.Join(dir, "gone.part")}}
	if err := os.WriteFile(filepath.Join(root, ".lore", "cache", "manifest"), mustBuild(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Check(root, 0); !strings.HasPrefix(got, "stale: ") || !strings.Contains(got, "gone.part is missing") {
		t.Errorf("Check = %q", got)
	}
}

func TestPartDamaged(t *testing.T) {
	dir := t.TempDir()
	_, part := orgPart(t, dir)
	b, _ := os.ReadFile(part.Path)
	p, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := p.Item(0)
	b[it.textRef.off] ^= 0x20 // a text byte: only Verify reads it
	if err := os.WriteFile(part.Path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := withPart(t, dir, part)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Verify(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), part.Path) {
		t.Errorf("Verify of a damaged part: %v", err)
	}
	// A damaged header is damage, not a routine rebuild.
	b[hBudget] ^= 1
	if err := os.WriteFile(part.Path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := withPart(t, dir, part); !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrPartMissing) {
		t.Errorf("damaged part header: %v", err)
	}
	if _, err := Build(Source{Parts: []Part{{Path: "relative.part"}}}); err == nil {
		t.Error("Build took a relative part path")
	}
}
