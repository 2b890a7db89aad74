package review

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

const exampleDraft = `---
id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8
kind: lesson
title: npm ci, not npm install, in CI
status: draft
priority: high
triggers:
  commands: ['^npm (install|i)\b']
examples:
  fire:
    - Bash: npm install
  quiet: 'Bash: ls'
---
## Fix
Run npm ci.
`

// TestRefineAddsExamples: the reviewer's examples are added after the
// item's own, whichever way those were written; a malformed one is an
// error and changes nothing.
func TestRefineAddsExamples(t *testing.T) {
	it, err := markdown.Parse(".lore/lessons/p.md", []byte(exampleDraft))
	if err != nil {
		t.Fatal(err)
	}
	if err := Refine(it, Refinement{ExampleFire: []string{"Bash: npm i left-pad"}, ExampleQuiet: []string{"Bash: go test ./..."}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range append(it.Examples.Fire, it.Examples.Quiet...) {
		got = append(got, e.String())
	}
	want := []string{"Bash: npm install", "Bash: npm i left-pad", "Bash: ls", "Bash: go test ./..."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\n%s", got, it.Raw())
	}
	before := string(it.Raw())
	if err := Refine(it, Refinement{ExampleQuiet: []string{"go test"}}); err == nil || !strings.Contains(err.Error(), "--example-quiet") {
		t.Errorf("a malformed example: %v", err)
	}
	if string(it.Raw()) != before {
		t.Errorf("a refused refinement changed the item")
	}
}

// TestDeliverableChecksExamples: promote's check refuses an item whose
// examples its triggers disagree with, after raising its priority (a
// draft that starts low is judged at the priority it will get).
func TestDeliverableChecksExamples(t *testing.T) {
	set := manifest.Settings{Threshold: 0.7, MaxItems: 3, BudgetBytes: 4096, MinConfidence: 0.5}
	low := strings.Replace(exampleDraft, "priority: high", "priority: low", 1)
	it, _ := markdown.Parse(".lore/lessons/p.md", []byte(low))
	if note, err := Deliverable(it, "", set); err != nil || !strings.Contains(note, "priority raised") {
		t.Errorf("agreeing examples: %q %v", note, err)
	}
	bad := strings.Replace(exampleDraft, "'Bash: ls'", "'Bash: npm install --save-dev vitest'", 1)
	it, _ = markdown.Parse(".lore/lessons/p.md", []byte(bad))
	_, err := Deliverable(it, "", set)
	want := "not promoted, nothing written: .lore/lessons/p.md: its examples disagree with its triggers: examples.quiet: `Bash: npm install --save-dev vitest` should leave this item quiet and fires it"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant %s...", err, want)
	}
}
