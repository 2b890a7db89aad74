package scan

import "errors"

// Lesson is the candidate a structured lesson makes (lore mcp's
// lore_record, docs/design.md, MCP server): the candidate a #lesson block
// with these fields (keys lowercased: title, tool, trigger, mistake, fix,
// tags, priority) makes in a transcript, redacted, hashed and scored as
// Scan does, so that it deduplicates against scan drafts and rejections.
func Lesson(fields map[string]string, opt Options) (Candidate, error) {
	b := Block{Kind: SignalLessonTag, Values: map[string]string{}}
	for _, k := range []string{"title", "tool", "trigger", "mistake", "fix", "tags", "priority"} {
		if v := fields[k]; v != "" {
			b.Keys = append(b.Keys, k)
			b.Values[k] = v
		}
	}
	if !b.complete() {
		return Candidate{}, errors.New("a lesson needs a mistake or a fix")
	}
	c := fromBlock(b)
	c.Session = "mcp"
	out, err := finish([]Candidate{c}, localizer(opt.Root, opt.Home))
	if err != nil {
		return Candidate{}, err
	}
	return out[0], nil
}
