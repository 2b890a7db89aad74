package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lore-agents/lore/internal/app"
)

// printStats prints the store-wide figures, then the items grouped by
// verdict, what to act on first at the top.
func printStats(w io.Writer, r app.StatsResult) {
	rep := r.Report
	period := "everything recorded"
	if rep.Since != nil {
		period = "since " + *rep.Since
	}
	fmt.Fprintf(w, "%s: %s in %s (%d new); ", period, plural(rep.Calls, "tool call"), plural(r.Calls.Transcripts, "transcript"), r.Calls.New)
	if rep.Spawned == nil {
		fmt.Fprintln(w, "the hook's ledger is empty: what items fired is unmeasured")
	} else {
		fmt.Fprintf(w, "the hooks saw %s in %s", plural(*rep.Spawned, "call"), plural(*rep.Contexts, "context"))
		if rep.NoLore != nil {
			fmt.Fprintf(w, " (%.0f%% of transcript calls spawned no lore process)", *rep.NoLore*100)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "active items: %d before a call, %d at session start, %d never", rep.Deliveries["before-call"], rep.Deliveries["session-start"], rep.Deliveries["never"])
	if len(rep.Dead) > 0 {
		fmt.Fprint(w, " (dead: lore list --json shows why)")
	}
	fmt.Fprintln(w)
	group := ""
	for _, s := range rep.Items {
		if s.Verdict != group {
			group = s.Verdict
			fmt.Fprintf(w, "\n%s (%d)\n", group, countVerdict(rep.Items, group))
		}
		fmt.Fprintf(w, "  %s  %s\n    %s\n    %s\n", s.Title, s.File, statsFigures(s), s.Why)
	}
}

func countVerdict(items []app.ItemStats, v string) int {
	n := 0
	for _, s := range items {
		if s.Verdict == v {
			n++
		}
	}
	return n
}

// statsFigures is an item's counts on one line; what the ledger or git
// cannot say is "unmeasured".
func statsFigures(s app.ItemStats) string {
	var parts []string
	if s.Fired == nil {
		parts = append(parts, "fired unmeasured")
	} else {
		f := fmt.Sprintf("fired %d in %s", *s.Fired, plural(*s.Contexts, "context"))
		if s.Held.Total > 0 {
			f += fmt.Sprintf(", held %d (changed %d, repeated %d)", s.Held.Total, s.Held.Changed, s.Held.Repeated)
		}
		if *s.Denied > 0 {
			f += fmt.Sprintf(", denied %d", *s.Denied)
		}
		if *s.Dropped > 0 {
			f += fmt.Sprintf(", dropped %d", *s.Dropped)
		}
		if s.LastFired != nil {
			f += ", last " + (*s.LastFired)[:10]
		}
		parts = append(parts, f)
	}
	parts = append(parts, plural(s.Matches, "matching call"))
	parts = append(parts, "before: "+side(s.Before), "after: "+side(s.After))
	return strings.Join(parts, "; ")
}

func side(s *app.Side) string {
	if s == nil {
		return "unmeasured"
	}
	return fmt.Sprintf("%d calls, %d failed", s.Calls, s.Failures)
}

// printReplay prints what each item would have fired on.
func printReplay(w io.Writer, r app.ReplayReport) {
	fmt.Fprintf(w, "%s against %s in %s\n", plural(len(r.Items), "item"), plural(r.Calls, "recorded tool call"), plural(r.Sessions, "session"))
	for _, it := range r.Items {
		fmt.Fprintf(w, "\n%s  %s\n", it.Title, it.File)
		if it.Fires == 0 {
			fmt.Fprintln(w, "  fires on none of them")
			continue
		}
		fmt.Fprintf(w, "  fires on %s (%d failed) in %d of %s\n", plural(it.Fires, "call"), it.Failed, it.Contexts, plural(r.Sessions, "session"))
		for _, e := range it.Examples {
			fmt.Fprintf(w, "    %s: %s    %s:%d%s\n", e.Tool, e.Input, e.File, e.Line, failedNote(e.Failed))
		}
	}
}

func failedNote(f string) string {
	if f == "" {
		return ""
	}
	return " (" + f + ")"
}

// printReplayGitHub prints one workflow command per item, annotating its
// file in a pull request: a notice with what it fires on, a warning when
// it fires on nothing.
func printReplayGitHub(w io.Writer, r app.ReplayReport) {
	for _, it := range r.Items {
		level, msg := "notice", fmt.Sprintf("fires on %d of %d recorded tool calls, in %d of %d sessions", it.Fires, r.Calls, it.Contexts, r.Sessions)
		if it.Fires == 0 {
			level, msg = "warning", fmt.Sprintf("fires on none of %d recorded tool calls: check its triggers (lore match shows why)", r.Calls)
		} else if len(it.Examples) > 0 {
			msg += fmt.Sprintf(", e.g. %s: %s", it.Examples[0].Tool, it.Examples[0].Input)
		}
		fmt.Fprintf(w, "::%s file=%s,line=1,title=%s::%s\n", level, ghProperty(it.File), ghProperty("lore replay: "+it.Title), ghData(msg))
	}
}

// ghData and ghProperty escape a workflow command's message and its
// properties as the GitHub Actions runner reads them.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(ghData(s))
}
