package review

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// CheckExamples says, as an error naming each example and why, when the
// hook's matcher disagrees with the item's examples (docs/design.md, Item
// format): what lint would report, checked before lore add or promote
// writes the item. set's threshold is the one setting that decides whether
// an item matches a call (the caps only drop a match, which still counts).
func CheckExamples(it *markdown.Item, set manifest.Settings) error {
	if it.Examples.Empty() {
		return nil
	}
	cfg := config.Default()
	cfg.Inject.Threshold = set.Threshold
	newMatcher := func(items []*markdown.Item, cfg config.Config) (lint.Matcher, error) {
		return compile.NewMatcher(items, cfg, true)
	}
	var msgs []string
	for _, f := range lint.Examples([]*markdown.Item{it}, cfg, newMatcher) {
		msgs = append(msgs, f.Key+": "+f.Msg)
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: its examples disagree with its triggers: %s", it.Path, strings.Join(msgs, "; "))
}

// refineExamples adds the reviewer's examples (`Tool: input`) to the
// item's, keeping those it has.
func refineExamples(it *markdown.Item, fire, quiet []string) error {
	if len(fire)+len(quiet) == 0 {
		return nil
	}
	if _, err := markdown.ParseExamples(fire, quiet); err != nil {
		return err
	}
	ex := it.Node("examples")
	if ex == nil || ex.Kind != yaml.MappingNode {
		ex = &yaml.Node{Kind: yaml.MappingNode}
	}
	addExamples(ex, "fire", fire)
	addExamples(ex, "quiet", quiet)
	return it.SetNode("examples", ex)
}

// addExamples appends calls to the list at key of the examples mapping;
// a single example written without a list becomes the list's first.
func addExamples(ex *yaml.Node, key string, calls []string) {
	if at := valueIndex(ex, key); at >= 0 && ex.Content[at].Kind == yaml.ScalarNode && ex.Content[at].Tag != "!!null" {
		ex.Content[at] = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{ex.Content[at]}}
	}
	setTrigger(ex, key, calls, true)
}
