package main

import (
	"fmt"
	"io"

	"github.com/lore-agents/lore/internal/app"
)

// Print sums the scan up and lists the drafts it wrote.
func printScan(w io.Writer, r *app.ScanResult) {
	st := r.Stats
	fmt.Fprintf(w, "scanned %d of %d files (%s, %d lines), %d candidates, %d new drafts\n",
		st.Files, r.Files, size(st.Bytes), st.Lines, len(r.Candidates), len(r.Written))
	if skipped := st.BadJSON + st.TooLong + st.Truncated + st.Unknown + st.Errors; skipped > 0 {
		fmt.Fprintf(w, "skipped: %d not JSON, %d too long, %d truncated, %d unknown, %d unreadable files\n",
			st.BadJSON, st.TooLong, st.Truncated, st.Unknown, st.Errors)
	}
	for _, d := range r.Written {
		fmt.Fprintf(w, "draft %s  [%s, priority %d, confidence %.2f] %s\n", d.Path, d.Signal, d.Priority, d.Confidence, d.Title)
	}
	if r.Fresh > len(r.Written) {
		fmt.Fprintf(w, "%d more new candidates not written (scan.maxCandidates is %d; see --json)\n", r.Fresh-len(r.Written), r.MaxCandidates)
	}
	if len(r.Written) > 0 {
		fmt.Fprintln(w, "review them with `lore review`")
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
