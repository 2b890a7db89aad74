package consolidate

import (
	"fmt"
	"strings"
)

// Markdown renders the consolidation report (tmp/consolidation-report.md).
func (res *Result) Markdown() string {
	var b strings.Builder
	res.header(&b)
	res.batchSection(&b)
	res.consolidated(&b)
	findings(&b, "Dropped: superseded", "superseded by", res.Superseded)
	findings(&b, "Dropped: redundant", "already said by", res.Redundant)
	findings(&b, "Escalated: contradictions (not written; resolve by hand)", "contradicts", res.Contradictions)
	res.fileLimit(&b)
	fmt.Fprintf(&b, "\n## Removed from %s\n\n", res.ages.File)
	if len(res.Removed) == 0 {
		b.WriteString("Nothing.\n")
	}
	for _, t := range res.Removed {
		fmt.Fprintf(&b, "- %s\n", t)
	}
	return b.String()
}

// header is the report's date, mode, trigger and thresholds.
func (res *Result) header(b *strings.Builder) {
	c := res.cfg
	b.WriteString("# Consolidation Report\n\n")
	mode := "applied"
	switch {
	case res.DryRun:
		mode = "dry run (nothing but this report was written)"
	case res.Task != "":
		mode = "agent task: " + res.Task + " (nothing routed or removed by lore)"
	}
	fmt.Fprintf(b, "- Date: %s\n- Mode: %s\n- Trigger: %s\n", res.ages.Today, mode, res.Reason)
	fmt.Fprintf(b, "- Thresholds: sizeTrigger %d lines, stalenessTrigger %d, freshness %d active days, minBatch %d, keepRecent %d, fileLimit %d lines\n",
		c.SizeTrigger, c.StalenessTrigger, c.Freshness, c.MinBatch, c.KeepRecent, c.FileLimit)
	fmt.Fprintf(b, "- Scores: topic overlap >= %.2f, opposite sentence overlap >= %.2f, redundancy coverage >= %.2f\n",
		TopicMin, SentenceMin, RedundantMin)
	if res.ages.Shallow {
		b.WriteString("- Note: shallow clone: ages count only the history that is present\n")
	}
}

// batchSection lists the batch with each entry's age, and the entries kept.
func (res *Result) batchSection(b *strings.Builder) {
	fmt.Fprintf(b, "\n## Batch (%d entries, oldest first)\n\n", len(res.Batch))
	age := map[string]string{}
	for _, e := range res.ages.Entries {
		age[e.Title] = fmt.Sprintf("%d active days, added %s", e.Age, e.Added)
	}
	for _, t := range res.Batch {
		fmt.Fprintf(b, "- %s (%s)\n", t, age[t])
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(b, "\nKept in staging as the %d newest: %s\n", len(res.Kept), strings.Join(res.Kept, "; "))
	}
}

// consolidated lists where each placed entry went.
func (res *Result) consolidated(b *strings.Builder) {
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
		fmt.Fprintf(b, "- %s -> %s%s\n", r.Title, r.Target, retry)
	}
}

// findings is a section of findings, none when there are none.
func findings(b *strings.Builder, title, verb string, fs []Finding) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n", title)
	for _, f := range fs {
		fmt.Fprintf(b, "- %s: %s %s (score %.2f): %s\n", f.Title, verb, f.Against, f.Score, f.Reason)
	}
}

// fileLimit lists the documents split and the entries that found no room.
func (res *Result) fileLimit(b *strings.Builder) {
	if len(res.Splits) > 0 {
		b.WriteString("\n## File limit: documents split\n\n")
		for _, s := range res.Splits {
			fmt.Fprintf(b, "- %s had %d lines (limit %d): split into %s\n", s.Target, s.Lines, res.cfg.FileLimit, strings.Join(s.Files, ", "))
		}
	}
	if len(res.FileLimit) > 0 {
		b.WriteString("\n## File limit: not placed (stay in staging)\n\n")
		for _, f := range res.FileLimit {
			fmt.Fprintf(b, "- %s -> %s: %s\n", f.Title, f.Against, f.Reason)
		}
	}
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
	res.preChecks(&b)
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

// preChecks lists the deterministic findings for the agent to review.
func (res *Result) preChecks(b *strings.Builder) {
	for _, kind := range []struct {
		name string
		fs   []Finding
	}{{"superseded", res.Superseded}, {"contradiction", res.Contradictions}, {"redundant", res.Redundant}} {
		for _, f := range kind.fs {
			fmt.Fprintf(b, "- %s: %s vs %s (score %.2f): %s\n", kind.name, f.Title, f.Against, f.Score, f.Reason)
		}
	}
	if len(res.Superseded)+len(res.Contradictions)+len(res.Redundant) == 0 {
		b.WriteString("None found.\n")
	}
}
