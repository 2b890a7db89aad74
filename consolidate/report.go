package consolidate

import (
	"fmt"
	"strings"
)

// Markdown renders the consolidation report (tmp/consolidation-report.md).
func (res *Result) Markdown() string {
	var b strings.Builder
	c := res.cfg
	b.WriteString("# Consolidation Report\n\n")
	mode := "applied"
	switch {
	case res.DryRun:
		mode = "dry run (nothing but this report was written)"
	case res.Task != "":
		mode = "agent task: " + res.Task + " (nothing routed or removed by lore)"
	}
	fmt.Fprintf(&b, "- Date: %s\n- Mode: %s\n- Trigger: %s\n", res.ages.Today, mode, res.Reason)
	fmt.Fprintf(&b, "- Thresholds: sizeTrigger %d lines, stalenessTrigger %d, freshness %d active days, minBatch %d, keepRecent %d, fileLimit %d lines\n",
		c.SizeTrigger, c.StalenessTrigger, c.Freshness, c.MinBatch, c.KeepRecent, c.FileLimit)
	fmt.Fprintf(&b, "- Scores: topic overlap >= %.2f, opposite sentence overlap >= %.2f, redundancy coverage >= %.2f\n",
		TopicMin, SentenceMin, RedundantMin)
	if res.ages.Shallow {
		b.WriteString("- Note: shallow clone: ages count only the history that is present\n")
	}
	fmt.Fprintf(&b, "\n## Batch (%d entries, oldest first)\n\n", len(res.Batch))
	age := map[string]string{}
	for _, e := range res.ages.Entries {
		age[e.Title] = fmt.Sprintf("%d active days, added %s", e.Age, e.Added)
	}
	for _, t := range res.Batch {
		fmt.Fprintf(&b, "- %s (%s)\n", t, age[t])
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(&b, "\nKept in staging as the %d newest: %s\n", len(res.Kept), strings.Join(res.Kept, "; "))
	}
	b.WriteString("\n## Consolidated\n\n")
	if len(res.Routed) == 0 {
		b.WriteString("Nothing.\n")
	}
	for _, r := range res.Routed {
		retry := ""
		if r.Retried {
			retry = " (retried after the file-limit split)"
		}
		if r.Earlier {
			retry = " (already there: written by an interrupted consolidation)"
		}
		fmt.Fprintf(&b, "- %s -> %s%s\n", r.Title, r.Target, retry)
	}
	findings := func(title, verb string, fs []Finding) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for _, f := range fs {
			fmt.Fprintf(&b, "- %s: %s %s (score %.2f): %s\n", f.Title, verb, f.Against, f.Score, f.Reason)
		}
	}
	findings("Dropped: superseded", "superseded by", res.Superseded)
	findings("Dropped: redundant", "already said by", res.Redundant)
	findings("Escalated: contradictions (not written; resolve by hand)", "contradicts", res.Contradictions)
	if len(res.Splits) > 0 {
		b.WriteString("\n## File limit: documents split\n\n")
		for _, s := range res.Splits {
			fmt.Fprintf(&b, "- %s had %d lines (limit %d): split into %s\n", s.Target, s.Lines, c.FileLimit, strings.Join(s.Files, ", "))
		}
	}
	if len(res.FileLimit) > 0 {
		b.WriteString("\n## File limit: not placed (stay in staging)\n\n")
		for _, f := range res.FileLimit {
			fmt.Fprintf(&b, "- %s -> %s: %s\n", f.Title, f.Against, f.Reason)
		}
	}
	fmt.Fprintf(&b, "\n## Removed from %s\n\n", res.ages.File)
	if len(res.Removed) == 0 {
		b.WriteString("Nothing.\n")
	}
	for _, t := range res.Removed {
		fmt.Fprintf(&b, "- %s\n", t)
	}
	return b.String()
}

// writeTask writes the batch and the check results for the remember-task
// agent (--agent): it decides and routes semantically, lore does not.
func (r *run) writeTask(cands []*candidate) error {
	res := r.res
	var b strings.Builder
	c := r.cfg.Consolidate
	b.WriteString("# Consolidation task\n\n")
	fmt.Fprintf(&b, "Use the `%s` agent on this batch from `%s`. Trigger: %s.\n", RememberAgent, r.cfg.Learnings, res.Reason)
	fmt.Fprintf(&b, "Keep the %d newest entries in staging. Target documents may not exceed %d lines; "+
		"when one would, skip the entry, report it, and ask for the `%s` agent on that document, then retry the skipped entries once.\n",
		c.KeepRecent, c.FileLimit, RefactorAgent)
	fmt.Fprintf(&b, "Write the report to `%s`.\n\n## Deterministic pre-checks (review them; escalate when unsure)\n\n", c.Report)
	line := func(kind string, f Finding) {
		fmt.Fprintf(&b, "- %s: %s vs %s (score %.2f): %s\n", kind, f.Title, f.Against, f.Score, f.Reason)
	}
	for _, f := range res.Superseded {
		line("superseded", f)
	}
	for _, f := range res.Contradictions {
		line("contradiction", f)
	}
	for _, f := range res.Redundant {
		line("redundant", f)
	}
	if len(res.Superseded)+len(res.Contradictions)+len(res.Redundant) == 0 {
		b.WriteString("None found.\n")
	}
	proposed := map[string]string{}
	for _, ro := range res.Routed {
		proposed[ro.Title] = ro.Target
	}
	b.WriteString("\n## Batch (oldest first)\n")
	for _, cd := range cands {
		fmt.Fprintf(&b, "\n### %s\n- Age: %d active days\n- Added: %s\n- Line: %d\n", cd.Title, cd.Age, cd.Added, cd.Line)
		if t, ok := proposed[cd.Title]; ok {
			fmt.Fprintf(&b, "- Proposed target: %s\n", t)
		}
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(cd.Body))
	}
	res.Task = TaskPath
	r.write(TaskPath, []byte(b.String()))
	return nil
}
