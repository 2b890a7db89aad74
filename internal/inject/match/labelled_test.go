package match_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// labelledStore compiles testdata/labelled/.lore (written by gen.py from
// common agent pain points) with the default config.
func labelledStore(t testing.TB) (*manifest.Manifest, map[string]string) {
	t.Helper()
	root := filepath.Join("testdata", "labelled")
	var items []*markdown.Item
	for _, folder := range []string{"lessons", "pitfalls", "decisions"} {
		files, err := filepath.Glob(filepath.Join(root, ".lore", folder, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			it, err := markdown.Parse(".lore/"+folder+"/"+filepath.Base(f), data)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, it)
		}
	}
	data, rep, err := compile.Build(compile.Input{Items: items, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Excluded) > 0 {
		t.Fatalf("labelled store has errors: %+v", rep.Excluded[0].Errors)
	}
	m, err := manifest.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	slugs := map[string]string{} // file -> slug
	prefix := regexp.MustCompile(`^(PF|ADR)-\d+-`)
	for _, it := range items {
		slugs[it.Path] = prefix.ReplaceAllString(strings.TrimSuffix(filepath.Base(it.Path), ".md"), "")
	}
	return m, slugs
}

type labelledCall struct {
	line int
	call match.Call
	want []string
}

func labelledCalls(t testing.TB) []labelledCall {
	f, err := os.Open(filepath.Join("testdata", "labelled", "calls.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledCall
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		cols := strings.Split(l, "\t")
		if len(cols) != 4 {
			t.Fatalf("calls.tsv:%d: want 4 tab-separated columns, got %d", n, len(cols))
		}
		c := match.Call{Tool: cols[0], Prompt: cols[2]}
		if c.Prompt != "" {
			c.Recent = []string{c.Prompt}
		}
		if c.Tool == "Bash" {
			c.Command = cols[1]
		} else {
			c.Path = cols[1]
		}
		var want []string
		if cols[3] != "-" {
			want = strings.Split(cols[3], ",")
		}
		sort.Strings(want)
		out = append(out, labelledCall{n, c, want})
	}
	return out
}

// TestLabelled measures injection quality on the labelled set: critical
// recall must be 100%, precision >= 95%, recall >= 90% (docs/design.md,
// Performance and quality bars). Every miss is logged; Explain must agree with
// Decide on every call.
func TestLabelled(t *testing.T) {
	m, slugs := labelledStore(t)
	critical := map[string]bool{}
	for i := 0; i < m.Len(); i++ {
		it, _ := m.Item(i)
		if it.Priority >= 9 {
			critical[slugs[it.File]] = true
		}
	}
	var tp, fp, fn, critWant, critHit int
	calls := labelledCalls(t)
	for _, lc := range calls {
		d, err := match.Decide(m, lc.call, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		var gotList []string
		for _, r := range d.Injected {
			got[slugs[r.File]] = true
			gotList = append(gotList, slugs[r.File])
		}
		want := map[string]bool{}
		for _, w := range lc.want {
			want[w] = true
			if critical[w] {
				critWant++
				if got[w] {
					critHit++
				}
			}
			if got[w] {
				tp++
			} else {
				fn++
				t.Logf("calls.tsv:%d: missed %s for %s %q", lc.line, w, lc.call.Tool, lc.call.Command+lc.call.Path)
			}
		}
		for _, g := range gotList {
			if !want[g] {
				fp++
				t.Logf("calls.tsv:%d: injected %s, not expected, for %s %q", lc.line, g, lc.call.Tool, lc.call.Command+lc.call.Path)
			}
		}
		// The index never changes the decision: scoring every item agrees.
		x, err := match.Explain(m, lc.call)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := resultIDs(d.Injected), resultIDs(x.Injected); a != b {
			t.Errorf("calls.tsv:%d: Decide %s, Explain %s", lc.line, a, b)
		}
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	critRecall := float64(critHit) / float64(critWant)
	t.Logf("labelled set: %d items, %d calls; precision %.3f (%d/%d), recall %.3f (%d/%d), critical recall %.3f (%d/%d)",
		m.Len(), len(calls), precision, tp, tp+fp, recall, tp, tp+fn, critRecall, critHit, critWant)
	if len(calls) < 150 || critWant == 0 {
		t.Errorf("the labelled set is too small: %d calls, %d critical expectations", len(calls), critWant)
	}
	if critRecall < 1 {
		t.Errorf("critical recall %.3f < 1", critRecall)
	}
	if precision < 0.95 {
		t.Errorf("precision %.3f < 0.95", precision)
	}
	if recall < 0.90 {
		t.Errorf("recall %.3f < 0.90", recall)
	}
}

func resultIDs(rs []match.Result) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return strings.Join(ids, ",")
}
