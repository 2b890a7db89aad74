package compile

import (
	"bytes"
	"fmt"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/markdown"
)

// SyntheticFiles returns n valid, active item files (repo-relative path ->
// content) for benchmarks: the first is the pytest lesson that the command
// `cd app && pytest -x tests` triggers; the rest are mostly Bash lessons on
// distinct tools, then file lessons, keyword lessons and path pitfalls, in
// a fixed mix with triggers lint accepts, so a store of any size is
// reproducible. No item names the WebSearch tool.
func SyntheticFiles(n int) map[string][]byte {
	files := make(map[string][]byte, n)
	prios := []string{"medium", "high", "low", "critical", "medium"}
	for i := 0; i < n; i++ {
		id := ulid.MustNew(uint64(1700000000000+i), bytes.NewReader(make([]byte, 16))).String()
		w := fmt.Sprintf("synth%05d", i)
		kind, folder, body := "lesson", "lessons", "## Mistake\nRan it the wrong way.\n\n## Fix\nRun it the right way.\n"
		var trig string
		prio := prios[i%len(prios)]
		switch {
		case i == 0:
			w = "pytest-hangs"
			trig = "  tools: [Bash]\n  commands: ['\\bpytest\\b']\n  unless: ['--no-header']\n"
		case i%20 < 12:
			trig = fmt.Sprintf("  tools: [Bash]\n  commands: ['\\b%s\\b', '^%s-alt\\s']\n  unless: ['--%s-ok']\n", w, w, w)
		case i%20 < 16:
			trig = fmt.Sprintf("  tools: [Edit, Write]\n  paths: ['**/%s.cfg']\n", w)
		case i%20 < 18:
			trig = fmt.Sprintf("  keywords: ['%s release', 'deploy %s']\n", w, w)
			prio = "high" // a keyword-only item fires on every call when critical
		default:
			kind, folder = "pitfall", "pitfalls"
			body = "## Issue\nBreaks things.\n\n## Avoid\nDo not.\n"
			trig = fmt.Sprintf("  tools: [Read, Edit, Write]\n  paths: ['src/%s/**']\n", w)
		}
		ref := ""
		if kind == "pitfall" {
			ref = fmt.Sprintf("ref: PF-%04d\n", i)
		}
		files[fmt.Sprintf(".lore/%s/%s.md", folder, w)] = []byte(fmt.Sprintf(
			"---\nid: %s\nkind: %s\ntitle: %s trap number %d\nstatus: active\npriority: %s\n%striggers:\n%s---\n\n%s",
			id, kind, w, i, prio, ref, trig, body))
	}
	return files
}

// Synthetic parses SyntheticFiles(n).
func Synthetic(n int) []*markdown.Item {
	files := SyntheticFiles(n)
	items := make([]*markdown.Item, 0, n)
	for path, data := range files {
		it, err := markdown.Parse(path, data)
		if err != nil {
			panic(err) // the generator is wrong
		}
		items = append(items, it)
	}
	return items
}
