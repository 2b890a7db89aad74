package match

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// Code pain points as content items: each must fire on an edit
// that introduces the mistake and stay quiet on one that has the fix.
var (
	mockPatch = manifest.Item{ID: "01MOCKPATCH", Title: "mock.patch targets the importing module", File: "m.md",
		Status: "active", Priority: 7, Confidence: 1, Text: "patch app.handlers.fetch, where it is looked up",
		Triggers: manifest.Triggers{Paths: []string{"**/test_*.py"},
			Content: []string{`\bmock\.patch\(\s*["']app\.clients\.`}}}
	missingAwait = manifest.Item{ID: "01NOAWAIT", Title: "fetch_json is a coroutine: await it", File: "a.md",
		Status: "active", Priority: 7, Confidence: 1, Text: "without await it returns a coroutine object",
		Triggers: manifest.Triggers{Paths: []string{"**/*.py"},
			Content: []string{`(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?[\w.]+\.fetch_json\(`}}}
	envOrder = manifest.Item{ID: "01ENVORDER", Title: ".env.local must be loaded before .env", File: "e.md",
		Status: "active", Priority: 7, Confidence: 1, Text: "load_dotenv does not override: load the local file first",
		Triggers: manifest.Triggers{Tools: []string{"Edit", "Write"},
			Content: []string{`(?s)load_dotenv\(\s*["']\.env["']\s*\).*load_dotenv\(\s*["']\.env\.local`}}}
)

func TestContentTriggers(t *testing.T) {
	m := build(t, defaults, mockPatch, missingAwait, envOrder, bash("01PYTEST", 7, `\bpytest\b`))
	for _, tc := range []struct {
		name, tool, path, content string
		want                      string
	}{
		{"mock.patch of the source module", "Edit", "tests/test_handlers.py",
			"@mock.patch(\"app.clients.fetch\")\ndef test_get(fetch):", "01MOCKPATCH"},
		{"mock.patch of the importing module", "Edit", "tests/test_handlers.py",
			"@mock.patch(\"app.handlers.fetch\")\ndef test_get(fetch):", ""},
		{"mock.patch outside a test file", "Edit", "app/fixtures.py",
			"mock.patch('app.clients.fetch')", ""},
		{"mock.patch read, not added", "Read", "tests/test_handlers.py", "mock.patch('app.clients.fetch')", ""},
		{"no text added by a shell call", "Bash", "", "", ""},
		{"a coroutine called without await", "Write", "app/sync.py",
			"async def sync(client):\n    data = client.fetch_json(url)\n    return data\n", "01NOAWAIT"},
		{"a bare call statement", "Edit", "app/sync.py", "    self.client.fetch_json(url)\n", "01NOAWAIT"},
		{"awaited", "Edit", "app/sync.py", "    data = await client.fetch_json(url)\n", ""},
		{".env before .env.local", "Edit", "app/settings.py",
			"load_dotenv(\".env\")\nload_dotenv(\".env.local\")\n", "01ENVORDER"},
		{".env.local first", "Edit", "app/settings.py",
			"load_dotenv(\".env.local\")\nload_dotenv(\".env\")\n", ""},
		{"MultiEdit is Edit", "MultiEdit", "tests/test_x.py", "mock.patch( 'app.clients.get')", "01MOCKPATCH"},
		{"no added text", "Edit", "tests/test_x.py", "", ""},
	} {
		c := Call{Tool: tc.tool, Path: tc.path, Content: tc.content}
		d, err := Decide(m, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(d.Injected); got != tc.want {
			t.Errorf("%s: injected %v, want %v", tc.name, got, tc.want)
		}
		// The index is a pre-filter: scoring every item selects the same.
		all, err := Explain(m, c)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(all.Injected); got != tc.want {
			t.Errorf("%s: Explain injected %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestContentExplainsWhy(t *testing.T) {
	m := build(t, defaults, mockPatch)
	d, err := Explain(m, Call{Tool: "Edit", Path: "tests/test_a.py", Content: `with mock.patch("app.clients.fetch"):`})
	if err != nil || len(d.Injected) != 1 {
		t.Fatalf("Explain = %+v, %v", d, err)
	}
	why := strings.Join(d.Injected[0].Reasons, "\n")
	for _, want := range []string{"path: `**/test_*.py` matched tests/test_a.py", "content: `" + mockPatch.Triggers.Content[0] + "` matched \"mock.patch(\\\"app.clients.\""} {
		if !strings.Contains(why, want) {
			t.Errorf("reasons lack %q:\n%s", want, why)
		}
	}
	d, _ = Explain(m, Call{Tool: "Edit", Path: "tests/test_a.py", Content: `mock.patch("app.handlers.fetch")`})
	if len(d.Rejected) != 1 || !strings.Contains(strings.Join(d.Rejected[0].Reasons, "\n"), "no content pattern") {
		t.Errorf("rejected = %+v", d.Rejected)
	}
}

// The hook reads the added text only for a tool whose bucket has content
// items, and content literals gate: an edit without them is no candidate.
func TestContentIndex(t *testing.T) {
	m := build(t, defaults, mockPatch, bash("01PYTEST", 7, `\bpytest\b`))
	for tool, want := range map[string]bool{"Edit": true, "Write": true, "NotebookEdit": true, "Read": false, "Bash": false, "WebFetch": false} {
		if got := m.Edits(tool); got != want {
			t.Errorf("Edits(%s) = %v, want %v", tool, got, want)
		}
	}
	if m := build(t, defaults, bash("01PYTEST", 7, `\bpytest\b`)); m.Edits("Edit") {
		t.Error("a store without content items asks for the added text")
	}
	for content, want := range map[string]int{"x = 1": 0, "MOCK.PATCH('app.clients.f')": 1} {
		idx, err := m.Candidates("Edit", "tests/test_a.py", content, "")
		if err != nil || len(idx) != want {
			t.Errorf("Candidates(Edit, %q) = %v, %v; want %d", content, idx, err, want)
		}
	}
}

// A critical content item can deny the edit that adds the code.
func TestContentDeny(t *testing.T) {
	utcnow := manifest.Item{ID: "01UTCNOW", Title: "datetime.utcnow is deprecated", File: "u.md", Status: "active",
		Priority: 9, Confidence: 1, Deny: true, Text: "use datetime.now(UTC)", Fix: "use datetime.now(UTC)",
		Triggers: manifest.Triggers{Tools: []string{"Edit", "Write"}, Content: []string{`\bdatetime\.utcnow\(`}}}
	m := build(t, defaults, utcnow)
	d, err := Decide(m, Call{Tool: "Write", Path: "app/x.py", Content: "stamp = datetime.utcnow()"}, nil)
	if err != nil || len(d.Injected) != 1 || !d.Injected[0].Deny || d.Injected[0].DenyReason != "use datetime.now(UTC)" {
		t.Fatalf("utcnow added: %+v, %v", d.Injected, err)
	}
	if d, _ := Decide(m, Call{Tool: "Write", Path: "app/x.py", Content: "stamp = datetime.now(UTC)"}, nil); len(d.Injected) != 0 {
		t.Errorf("the fix is denied: %+v", d.Injected)
	}
}
