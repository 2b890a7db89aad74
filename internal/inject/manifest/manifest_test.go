package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/lorepath"
)

func sample() Source {
	items := []Item{
		{ID: "01B", Kind: "lesson", Title: "pytest hangs", File: "acme:lessons/pytest.md", Status: "active", Priority: 7, Confidence: 0.9, Hold: true, Org: true,
			Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`\bpytest\b`}, Unless: []string{"--no-header"}},
			Text:     "### Lesson: pytest hangs\nFix: use --no-header", Fix: "use --no-header"},
		{ID: "01A", Kind: "pitfall", Title: "force push", File: ".lore/pitfalls/PF-0001-force.md", Status: "active", Priority: 9, Confidence: 1, Deny: true,
			Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`git\s+push\s+.*--force`}},
			Required: [][]string{{"git", "push", "--force"}},
			Text:     "### Pitfall: force push", Fix: "use --force-with-lease"},
		{ID: "01C", Kind: "lesson", Title: "release", File: "user:lessons/release.md", Status: "active", Priority: 7, Confidence: 1, Global: true,
			Triggers: Triggers{Keywords: []string{"release"}}, Text: "### Lesson: release"},
	}
	return Source{
		Hash:         [32]byte{1, 2, 3},
		Settings:     Settings{BudgetBytes: 4096, MaxItems: 3, Threshold: 0.7, ReinjectPriority: 7, MinConfidence: 0.5},
		SessionStart: "## Critical\n- force push\n",
		Items:        items,
		Buckets: []Bucket{
			{Tool: "Bash", Target: []Gate{{Item: 0, Literals: []string{"pytest"}}, {Item: 1, Literals: []string{"push"}}},
				Keyword: []Gate{{Item: 2, Literals: []string{"release"}}}},
			{Tool: "*", Keyword: []Gate{{Item: 2, Literals: []string{"release"}}}},
			{Tool: "Read", Always: []int{2}},
		},
	}
}

func mustBuild(t testing.TB, src Source) []byte {
	t.Helper()
	b, err := Build(src)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ids(t *testing.T, m *Manifest, idx []int) []string {
	t.Helper()
	var out []string
	for _, i := range idx {
		it, err := m.Item(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it.ID)
	}
	return out
}

func candidates(t *testing.T, m *Manifest, tool, target, prompt string) []int {
	t.Helper()
	idx, err := m.Candidates(tool, target, "", prompt)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func TestRoundTrip(t *testing.T) {
	src := sample()
	data := mustBuild(t, src)
	path := filepath.Join(t.TempDir(), "manifest")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Settings() != src.Settings {
		t.Errorf("settings = %+v, want %+v", m.Settings(), src.Settings)
	}
	if got, err := m.SessionStart(); got != src.SessionStart || err != nil {
		t.Errorf("session start = %q, %v", got, err)
	}
	if m.Len() != 3 {
		t.Errorf("len %d", m.Len())
	}
	if got := data[hHash : hHash+32]; !bytes.Equal(got, src.Hash[:]) {
		t.Errorf("source hash %x, want %x", got, src.Hash)
	}
	if p, ok, err := m.Priority("01A"); !ok || p != 9 || err != nil {
		t.Errorf("Priority(01A) = %d, %v", p, ok)
	}
	if _, ok, err := m.Priority("01Z"); ok || err != nil {
		t.Error("Priority of a missing id reported found")
	}
	for _, tc := range []struct {
		tool, target, prompt string
		want                 []string
	}{
		{"Bash", "cd app && PYTEST_ADDOPTS=-x pytest", "", []string{"01B"}},
		{"Bash", "git push --force", "cut the RELEASE", []string{"01A", "01C"}},
		{"Bash", "ls -la", "", nil},
		{"Read", "x", "", []string{"01C"}},
		{"WebFetch", "", "release notes", []string{"01C"}},
		{"WebFetch", "", "nothing", nil},
	} {
		got := ids(t, m, candidates(t, m, tc.tool, tc.target, tc.prompt))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Candidates(%q, %q, %q) = %v, want %v", tc.tool, tc.target, tc.prompt, got, tc.want)
		}
	}
	// Every field survives, and texts are read separately.
	for i := 0; i < m.Len(); i++ {
		it, err := m.Item(i)
		if err != nil {
			t.Fatal(err)
		}
		var want Item
		for _, w := range src.Items {
			if w.ID == it.ID {
				want = w
			}
		}
		text, err1 := m.Text(it)
		fix, err2 := m.Fix(it)
		if err1 != nil || err2 != nil || text != want.Text || fix != want.Fix {
			t.Errorf("%s: text %q fix %q (%v %v)", it.ID, text, fix, err1, err2)
		}
		if it.Deny != want.Deny || it.Hold != want.Hold || it.Global != want.Global || it.Org != want.Org {
			t.Errorf("%s: flags deny %v hold %v global %v org %v, want %v %v %v %v", it.ID, it.Deny, it.Hold, it.Global, it.Org, want.Deny, want.Hold, want.Global, want.Org)
		}
		// Head reads the id, deny flag and required literals alone;
		// ItemOf the rest.
		h, err := m.Head(i)
		req, rerr := h.Required()
		if err != nil || rerr != nil || h.ID() != it.ID || string(h.IDBytes()) != it.ID || h.Deny != it.Deny || !reflect.DeepEqual(req, want.Required) {
			t.Errorf("Head(%d) = %+v (%v, %v), want %q deny %v required %q", i, h, err, rerr, it.ID, it.Deny, want.Required)
		}
		of, err := m.ItemOf(h)
		if it.Required = req; err != nil || !reflect.DeepEqual(of, it) {
			t.Errorf("ItemOf(Head(%d)) = %+v (%v), want %+v", i, of, err, it)
		}
		it.textRef, it.fixRef = ref{}, ref{}
		want.Text, want.Fix = "", ""
		if !reflect.DeepEqual(it, want) {
			t.Errorf("item %d = %+v, want %+v", i, it, want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a := mustBuild(t, sample())
	src := sample()
	// Input order of items, buckets and gates does not change the bytes.
	src.Items[0], src.Items[1] = src.Items[1], src.Items[0]
	for i := range src.Buckets {
		for j := range src.Buckets[i].Target {
			src.Buckets[i].Target[j].Item = 1 - src.Buckets[i].Target[j].Item
		}
		src.Buckets[i].Target = append([]Gate(nil), src.Buckets[i].Target...)
		if len(src.Buckets[i].Target) == 2 {
			src.Buckets[i].Target[0], src.Buckets[i].Target[1] = src.Buckets[i].Target[1], src.Buckets[i].Target[0]
		}
	}
	src.Buckets[0], src.Buckets[2] = src.Buckets[2], src.Buckets[0]
	if b := mustBuild(t, src); !bytes.Equal(a, b) {
		t.Error("same items in another order gave other bytes")
	}
}

func TestShortLiteralIsAlways(t *testing.T) {
	src := sample()
	src.Buckets = []Bucket{{Tool: "Bash", Target: []Gate{{Item: 0, Literals: []string{"pytest", "rm"}}}}}
	m, err := Parse(mustBuild(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, m, candidates(t, m, "Bash", "echo", "")); !reflect.DeepEqual(got, []string{"01B"}) {
		t.Errorf("short literal: candidates %v, want the item always", got)
	}
}

func TestCorrupt(t *testing.T) {
	good := mustBuild(t, sample())
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"empty":     {nil, ErrCorrupt},
		"truncated": {good[:len(good)-1], ErrCorrupt},
		"garbage":   {bytes.Repeat([]byte("x"), 300), ErrCorrupt},
		"version": {func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[hVersion:], Version+1)
			return b
		}(), ErrVersion},
		"header bit": {func() []byte {
			b := bytes.Clone(good)
			b[hBudget] ^= 1
			return b
		}(), ErrCorrupt},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(path); !errors.Is(err, tc.want) {
			t.Errorf("%s: Open error %v, want %v", name, err, tc.want)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	// A flipped byte in a record or text is caught by its checksum.
	m, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := m.Item(0)
	b := bytes.Clone(good)
	b[it.textRef.off] ^= 0x20
	m2, _ := Parse(b)
	if _, err := m2.Text(it); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped text byte: %v", err)
	}
	off := binary.LittleEndian.Uint32(good[m.itemTab:])
	b = bytes.Clone(good)
	b[off+10] ^= 0x01
	m3, _ := Parse(b)
	if _, err := m3.Item(0); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped record byte: %v", err)
	}
	// A head whose checksum holds but whose required literals do not
	// decode (a builder's bug): Head reads its id, Required, ItemOf and
	// Verify report it.
	hOff := binary.LittleEndian.Uint32(good[m.headTab:])
	n := binary.LittleEndian.Uint32(good[hOff:])
	b = bytes.Clone(good)
	payload := b[hOff+8 : hOff+8+n]
	h0, _ := m.Head(0)
	payload[len(payload)-len(h0.req)] = 0x7e // 126 command patterns
	binary.LittleEndian.PutUint32(b[hOff+4:], sum32(payload))
	m4, _ := Parse(b)
	h, err := m4.Head(0)
	if err != nil || h.ID() != it.ID {
		t.Fatalf("head with bad required literals: %+v %v", h, err)
	}
	if _, err := h.Required(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Required: %v", err)
	}
	if _, err := m4.ItemOf(h); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ItemOf: %v", err)
	}
	if err := m4.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
}

// FuzzParse: garbage never panics, whatever lookups follow.
func FuzzParse(f *testing.F) {
	good := mustBuild(f, sample())
	f.Add(good)
	f.Add(good[:headerSize])
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		fuzzlimit.Run(t, func() { lookups(data, dir) })
	})
}

// lookups parses data and runs every lookup the hook makes on it; dir is
// a work tree with no sources, for the freshness checks.
func lookups(data []byte, dir string) {
	m, err := Parse(data)
	if err != nil {
		// Also try it with the header fixed up, to reach the lookups.
		if len(data) < headerSize {
			return
		}
		data = bytes.Clone(data)
		copy(data, magic)
		binary.LittleEndian.PutUint32(data[hVersion:], Version)
		binary.LittleEndian.PutUint64(data[hFileSize:], uint64(len(data)))
		if d := binary.LittleEndian.Uint32(data[hDirLen:]); int(d) <= len(data)-headerSize {
			binary.LittleEndian.PutUint32(data[hWatchOff:], headerSize)
			binary.LittleEndian.PutUint32(data[hWatchLen:], 0)
			binary.LittleEndian.PutUint32(data[hDirOff:], headerSize)
			binary.LittleEndian.PutUint32(data[hHeaderCRC:], headerCRC(data[:headerSize], data[headerSize:headerSize+int(d)]))
		}
		if m, err = Parse(data); err != nil {
			return
		}
	}
	_, _ = m.SessionStart()
	_ = m.Verify()
	_, _ = m.Changed(dir)
	_, _, _ = m.Priority("01A")
	for _, tool := range []string{"Bash", "Read", "*", "X"} {
		idx, _ := m.Candidates(tool, "git push --force pytest", "", "release")
		for _, i := range idx {
			if it, err := m.Item(i); err == nil {
				_, _ = m.Text(it)
				_, _ = m.Fix(it)
			}
		}
	}
	for i := 0; i < m.Len() && i < 100; i++ {
		_, _ = m.Item(i)
		if h, err := m.Head(i); err == nil {
			_, _ = m.ItemOf(h)
			_, _ = h.Possible(func(lit []byte) bool { return len(lit)%2 == 0 })
		}
	}
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	lessons := filepath.Join(root, ".lore", "lessons")
	if err := os.MkdirAll(lessons, 0o755); err != nil {
		t.Fatal(err)
	}
	item := filepath.Join(lessons, "a.md")
	if err := os.WriteFile(item, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := sample()
	src.Revision = 7
	src.Watch = []Watched{{Path: ".lore/lessons", Stat: StatPath(lessons)}, {Path: ".lore/config.yaml", Stat: StatPath(filepath.Join(root, ".lore/config.yaml"))}}
	src.Files = []Watched{{Path: ".lore/lessons/a.md", Stat: StatPath(item)}}
	src.Items[0].Sources = []int{0}
	path := filepath.Join(root, filepath.FromSlash(lorepath.Manifest))
	if got := Check(root, 7); got != "missing" {
		t.Errorf("no manifest: %q", got)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, mustBuild(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Check(root, 7); got != "" {
		t.Errorf("fresh: %q", got)
	}
	if got := Check(root, 8); got != "stale: built by compiler revision 7" {
		t.Errorf("other revision: %q", got)
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	it, err := m.Item(1) // 01B, the item with the source
	if err != nil || it.ID != "01B" {
		t.Fatalf("%v %v", it.ID, err)
	}
	// Rewritten in place: the folder does not change, the file does.
	if err := os.WriteFile(item, []byte("three"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := m.Changed(root); p != "" || err != nil {
		t.Errorf("Changed = %q, %v: an edit in place does not touch the folder", p, err)
	}
	if p, err := m.ItemChanged(root, it); p != ".lore/lessons/a.md" || err != nil {
		t.Errorf("ItemChanged = %q, %v", p, err)
	}
	if got := Check(root, 7); got != "stale: .lore/lessons/a.md changed" {
		t.Errorf("edited: %q", got)
	}
	// A new file changes the folder; so does a config that appears.
	if err := os.WriteFile(filepath.Join(root, ".lore/config.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := m.Changed(root); p != ".lore/config.yaml" || err != nil {
		t.Errorf("Changed = %q, %v", p, err)
	}
	// A flipped byte is corrupt: the watched files as built again (a
	// changed one is found first and makes it stale), the flipped entry is
	// the edited item's, whose checksum is read before its stat.
	if err := os.Remove(filepath.Join(root, ".lore/config.yaml")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	b[len(b)-1] ^= 1
	os.WriteFile(path, b, 0o644)
	if got := Check(root, 7); !strings.HasPrefix(got, "corrupt: ") {
		t.Errorf("flipped: %q", got)
	}
}

// A long text's keys are probed a batch at a time, past a cache of the
// keys seen lately: a literal is found wherever it sits, across batch
// edges, once, and a filler of many distinct grams finds nothing.
func TestProbeLongText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "manifest")
	if err := os.WriteFile(path, mustBuild(t, sample()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var filler strings.Builder
	for i := 0; filler.Len() < 4000; i++ {
		filler.WriteString(strings.Repeat(string(rune('a'+i%26)), i%3+1) + string(rune('0'+i%10)) + " ")
	}
	f := filler.String()
	if got := candidates(t, m, "Bash", f, ""); len(got) != 0 {
		t.Errorf("the filler alone: %v", ids(t, m, got))
	}
	for _, at := range []int{0, 1, batchLen - 4, batchLen - 2, batchLen, 2*batchLen + 1, 1500, len(f)} {
		text := f[:at] + "PyTest" + f[at:] + " pytest"
		if got := ids(t, m, candidates(t, m, "Bash", text, "")); !reflect.DeepEqual(got, []string{"01B"}) {
			t.Errorf("pytest at %d: %v", at, got)
		}
	}
}

// TestHeadsOfOneLiteralAreNeighbours: items that share tools and required
// literals have their heads side by side, whatever their ids, so the
// candidates of one call read one stretch of the file.
func TestHeadsOfOneLiteralAreNeighbours(t *testing.T) {
	item := func(id string, tools []string, req string) Item {
		return Item{ID: id, Kind: "lesson", Title: id, File: ".lore/lessons/" + id + ".md", Status: "active", Priority: 7, Confidence: 1,
			Triggers: Triggers{Tools: tools, Commands: []string{req + `\b`}}, Required: [][]string{{req}}, Text: "### " + id}
	}
	src := Source{Settings: sample().Settings, Items: []Item{
		item("01A", []string{"Bash"}, "pytest"), item("01B", []string{"Bash"}, "docker"),
		item("01C", []string{"Bash"}, "pytest"), item("01D", []string{"Bash"}, "docker"),
		item("01E", []string{"Bash"}, "pytest"),
	}}
	m, err := Parse(mustBuild(t, src))
	if err != nil {
		t.Fatal(err)
	}
	at := func(i int) int { return int(binary.LittleEndian.Uint32(m.data[m.headTab+4*i:])) }
	for _, run := range [][]int{{0, 2, 4}, {1, 3}} {
		for k := 1; k < len(run); k++ {
			prev, next := at(run[k-1]), at(run[k])
			if size := 8 + int(binary.LittleEndian.Uint32(m.data[prev:])); next != prev+size {
				t.Errorf("heads of items %d and %d: at %d and %d, not side by side", run[k-1], run[k], prev, next)
			}
		}
	}
	for i, id := range []string{"01A", "01B", "01C", "01D", "01E"} {
		if h, err := m.Head(i); err != nil || h.ID() != id {
			t.Errorf("head %d: %+v %v, want %s", i, h, err, id)
		}
	}
}

// TestCandidatesOfMixedPostings: a gram's posting list can alternate
// literals ("abab" and "baba" have the same grams, so both are filed under
// "aba"): each entry is judged by its own literal, though a run of one
// literal is looked for once.
func TestCandidatesOfMixedPostings(t *testing.T) {
	item := func(id string) Item {
		return Item{ID: id, Kind: "lesson", Title: id, File: ".lore/lessons/" + id + ".md", Status: "active", Priority: 7, Confidence: 1,
			Triggers: Triggers{Tools: []string{"Bash"}}, Text: "### " + id}
	}
	lits := []string{"abab", "baba", "baba", "abab", "baba", "abab"}
	var gates []Gate
	var items []Item
	for i, l := range lits {
		items = append(items, item(fmt.Sprintf("01%c", 'A'+i)))
		gates = append(gates, Gate{Item: i, Literals: []string{l}})
	}
	src := Source{Settings: sample().Settings, Items: items, Buckets: []Bucket{{Tool: "Bash", Target: gates}}}
	m, err := Parse(mustBuild(t, src))
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string][]string{
		"abab -x":  {"01A", "01D", "01F"},
		"run BABA": {"01B", "01C", "01E"},
		"ababa":    {"01A", "01B", "01C", "01D", "01E", "01F"},
		"aba bab":  nil,
	} {
		if got := ids(t, m, candidates(t, m, "Bash", target, "")); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", target, got, want)
		}
	}
}

// headKey orders the heads as fmt.Sprint of the same lists did.
func TestHeadKeyIsSprint(t *testing.T) {
	for _, c := range []struct {
		tools    []string
		required [][]string
	}{
		{nil, nil}, {[]string{}, [][]string{}}, {[]string{"Bash"}, [][]string{{"pytest"}}},
		{[]string{"Edit", "Write"}, [][]string{nil, {"git", "push"}, {}}}, {[]string{"a b"}, [][]string{{"x y", "z"}}},
	} {
		if got, want := headKey(c.tools, c.required), fmt.Sprint(c.tools, c.required); got != want {
			t.Errorf("headKey(%q, %q) = %q, want %q", c.tools, c.required, got, want)
		}
	}
}
