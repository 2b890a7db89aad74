package match

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// TestPhraseOnly: an item constrained only by keywords and/or topics fires
// only with one of its phrases, at medium and above when all are there,
// whatever its priority (docs/design.md, Matching and scoring).
func TestPhraseOnly(t *testing.T) {
	item := func(prio int, kws, topics []string) manifest.Item {
		return manifest.Item{ID: "K", Status: "active", Priority: prio, Confidence: 1,
			Triggers: manifest.Triggers{Keywords: kws, Topics: topics}}
	}
	kw := []string{"release"}
	two := []string{"release", "changelog"}
	top := []string{"deploy"}
	for _, tc := range []struct {
		name   string
		it     manifest.Item
		prompt string
		recent []string
		rel    float64 // 0: not injected
	}{
		{"low with its keyword", item(2, kw, nil), "the release", nil, 0},
		{"medium with its keyword", item(5, kw, nil), "the release", nil, 1},
		{"medium without", item(5, kw, nil), "hello", nil, 0},
		{"high with its keyword", item(7, kw, nil), "the release", nil, 1},
		{"high without", item(7, kw, nil), "hello", nil, 0},
		{"critical with its keyword", item(9, kw, nil), "the release", nil, 1},
		{"critical without", item(9, kw, nil), "hello", nil, 0},
		{"medium half its keywords", item(5, two, nil), "the release", nil, 0},
		{"high half its keywords", item(7, two, nil), "the release", nil, 0.5},
		{"medium all its keywords", item(5, two, nil), "release changelog", nil, 1},
		{"medium keyword and topic", item(5, kw, top), "the release", []string{"deploy it"}, 1},
		{"medium keyword, no topic", item(5, kw, top), "the release", nil, 0.8},
		{"medium topic, no keyword", item(5, kw, top), "hi", []string{"deploy it"}, 0},
		{"critical topic, no keyword", item(9, kw, top), "hi", []string{"deploy it"}, 0},
		{"medium topic-only with it", item(5, nil, top), "hi", []string{"deploy it"}, 1},
		{"critical topic-only without", item(9, nil, top), "hi", []string{"nothing"}, 0},
	} {
		m := build(t, defaults, tc.it)
		for _, c := range []Call{
			{Tool: "Bash", Command: "ls", Prompt: tc.prompt, Recent: tc.recent},
			{Tool: "WebFetch", Prompt: tc.prompt, Recent: tc.recent},
		} {
			d, err := Decide(m, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			x, err := Explain(m, c)
			if err != nil {
				t.Fatal(err)
			}
			if ids(d.Injected) != ids(x.Injected) {
				t.Errorf("%s, %s: Decide %q, Explain %q", tc.name, c.Tool, ids(d.Injected), ids(x.Injected))
			}
			if tc.rel == 0 {
				if len(d.Injected) != 0 {
					t.Errorf("%s, %s: injected with relevance %.2f", tc.name, c.Tool, d.Injected[0].Relevance)
				}
				continue
			}
			if len(d.Injected) != 1 || !near(d.Injected[0].Relevance, tc.rel) {
				t.Errorf("%s, %s: got %+v, want relevance %.2f", tc.name, c.Tool, d.Injected, tc.rel)
			}
		}
	}
	// lore match names why a keyword-only item is out.
	m := build(t, defaults, item(9, kw, nil))
	x, _ := Explain(m, Call{Tool: "Bash", Command: "ls", Prompt: "hi"})
	if len(x.Rejected) != 1 || !strings.Contains(strings.Join(x.Rejected[0].Reasons, " "), "none of its phrases is present") {
		t.Errorf("Explain: %+v", x.Rejected)
	}
}

func TestUnreachable(t *testing.T) {
	for _, tc := range []struct {
		s     Shape
		prio  int
		never bool
	}{
		{Shape{Keywords: 1}, 2, true},
		{Shape{Keywords: 1}, 5, false},
		{Shape{Topics: 1}, 5, false},
		{Shape{Tools: true}, 5, false},               // 0.4+0.2+0.05+0.05 = 0.70: exactly the threshold
		{Shape{Tools: true, Keywords: 1}, 4, false},  // 0.75
		{Shape{Tools: true, Targets: true}, 2, true}, // any low item: 0.9 x 0.5
		{Shape{Tools: true, Targets: true}, 5, false},
		{Shape{Targets: true}, 5, false},
		{Shape{}, 5, true},  // 0.5
		{Shape{}, 7, false}, // 0.75
	} {
		got := tc.s.Unreachable(tc.prio, 0.7) != ""
		if got != tc.never {
			t.Errorf("%+v priority %d: unreachable %v, want %v (%s)", tc.s, tc.prio, got, tc.never, tc.s.Unreachable(tc.prio, 0.7))
		}
	}
}

func TestContentUnreachable(t *testing.T) {
	for _, tc := range []struct {
		tools, content []string
		never          bool
	}{
		{[]string{"Read"}, []string{`\butcnow\(`}, true},
		{[]string{"Bash", "Grep"}, []string{`x`}, true},
		{nil, []string{`x`}, false}, // every call that adds text
		{[]string{"Read", "multiedit"}, []string{`x`}, false},
		{[]string{"NotebookEdit"}, []string{`x`}, false},
		{[]string{"Read"}, nil, false},
	} {
		why := ContentUnreachable(tc.tools, tc.content)
		if (why != "") != tc.never {
			t.Errorf("tools %v content %v: %q, want never=%v", tc.tools, tc.content, why, tc.never)
		}
		if never := Never(manifest.Triggers{Tools: tc.tools, Content: tc.content}, 9, 0.7); never != why {
			t.Errorf("Never = %q, want %q", never, why)
		}
	}
}

// VetoedAlways is sure or silent: it says an item is dead only when every
// call its commands match holds a text an unless pattern matches anywhere.
func TestVetoedAlways(t *testing.T) {
	for _, tc := range []struct {
		commands, unless []string
		paths            []string
		dead             bool
	}{
		{[]string{`\bmypy\b`}, []string{`mypy`}, nil, true},
		{[]string{`\bmypy\b`}, []string{`.`}, nil, true},
		{[]string{`\bmypy\b`}, []string{`x*`}, nil, true}, // matches the empty text
		{[]string{`\bmypy\b`}, []string{`--strict`, `my`}, nil, true},
		{[]string{`\bmypy\b`}, []string{`--strict`}, nil, false},
		{[]string{`\bmypy\b`}, []string{`^mypy`}, nil, false},            // an anchor may fail in a longer command
		{[]string{`\bmypy\b`}, []string{`\bmypy\b`}, nil, false},         // so may a word boundary
		{[]string{`(?i)\bmypy\b`}, []string{`mypy`}, nil, false},         // MYPY fires
		{[]string{`(?i)\bmypy\b`}, []string{`(?i)mypy`}, nil, true},      // any case is vetoed
		{[]string{`\bMyPy\b`}, []string{`mypy`}, nil, false},             // the call says MyPy
		{[]string{`\bmypy\b`, `\bruff\b`}, []string{`mypy`}, nil, false}, // ruff still fires
		{[]string{`\bmypy\b`}, []string{`mypy`}, []string{"**/*.py"}, false},
		{[]string{`\bmypy\b`}, nil, nil, false},
	} {
		trig := manifest.Triggers{Tools: []string{"Bash"}, Commands: tc.commands, Unless: tc.unless, Paths: tc.paths}
		got := VetoedAlways(trig)
		if (got != "") != tc.dead {
			t.Errorf("commands %q unless %q paths %q: %q, want dead %v", tc.commands, tc.unless, tc.paths, got, tc.dead)
		}
		// The matcher is the oracle: a dead item fires on none of these.
		m := build(t, defaults, manifest.Item{ID: "V", Status: "active", Priority: 7, Confidence: 1, Triggers: trig, Text: "v"})
		fired := false
		for _, cmd := range []string{"mypy app", "MYPY src", "cd api && python -m mypy .", "MyPy x", "ruff check ."} {
			d, err := Decide(m, Call{Tool: "Bash", Command: cmd}, nil)
			fired = fired || err == nil && len(d.Injected) > 0
		}
		if tc.dead && fired {
			t.Errorf("commands %q unless %q: said dead, but fired", tc.commands, tc.unless)
		}
	}
	if why := Never(manifest.Triggers{Tools: []string{"Bash"}, Commands: []string{`\bmypy\b`}, Unless: []string{`mypy`}}, 7, 0.7); !strings.Contains(why, "unless `mypy`") {
		t.Errorf("Never: %q", why)
	}
}
