package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/compile"
)

// deliveryWords say in the report how a created item will be delivered
// once promoted.
var deliveryWords = map[string]string{
	compile.BeforeCall:   "before a matching call",
	compile.SessionStart: "at session start",
	compile.Never:        "never (see below)",
}

// printImport prints what an import created and what it could not carry.
func printImport(w io.Writer, r app.Imported, dryRun bool) {
	p, res := r.Plan, r.Result
	verb := "created"
	if dryRun {
		verb = "would create"
	}
	for _, c := range res.Created {
		fmt.Fprintf(w, "%s %s (%s): %s\n", verb, c.Path, c.Key, deliveryWords[c.Delivery])
	}
	if notes := append(slices.Clip(p.Notes), res.Notes...); len(notes) > 0 {
		fmt.Fprintf(w, "\nNot carried over as it was (%d):\n", len(notes))
		for _, n := range notes {
			title := ""
			if n.Title != "" {
				title = " " + strconv.Quote(n.Title) + ":"
			}
			fmt.Fprintf(w, "- %s:%s %s\n", n.From, title, n.Msg)
		}
	}
	fmt.Fprintf(w, "\n%s: %d draft(s) %s, %d already in the store; review them with `lore review`\n", p.Source, len(res.Created), verb, res.Present)
}

// printExport prints an export's changes and notes; check says the
// files were compared, not written.
func printExport(w io.Writer, target string, e app.Exported, check bool) {
	for _, c := range e.Changes {
		fmt.Fprintf(w, "%s%s\n", changeVerb(c.Data == nil, check), c.Path)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(w, "- %s %q: %s\n", n.From, n.Title, n.Msg)
	}
	fmt.Fprintf(w, "%s: %d active item(s), %s\n", target, e.Items, exportState(target, e, check))
}

// changeVerb says what an export did to a file (gone: it removed it).
func changeVerb(gone, check bool) string {
	switch {
	case check:
		return "out of date: "
	case gone:
		return "removed "
	}
	return "wrote "
}

// exportState is the export's last word: up to date, out of date, or
// how many files it changed.
func exportState(target string, e app.Exported, check bool) string {
	switch {
	case len(e.Changes) == 0:
		return "up to date"
	case check:
		return "out of date: run `lore export " + target + "`"
	}
	return fmt.Sprintf("%d file(s) changed", len(e.Changes))
}
