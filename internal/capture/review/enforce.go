package review

import (
	"regexp"
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// destructive are the commands whose first run cannot be taken back, so a
// lesson about one must arrive before the call (docs/design.md, Prevention
// before the call): recursive deletes, history rewrites and discarded
// work in git, dropped or emptied tables, wiped disks and volumes, and
// destroyed infrastructure.
var destructive = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + strings.Join([]string{
		`\brm\s+(-\w*[rf]\w*\s+)*-\w*[rR]`,                                 // rm -rf, rm -r, rm -fr
		`\bgit\s+push\b.*\s(--force\b(?:[^-]|$)|-f\b|\+\S)`,                // a force push (not --force-with-lease)
		`\bgit\s+reset\s+.*--hard\b|\bgit\s+reset\s+--hard\b`,              // discards the work tree
		`\bgit\s+clean\s+.*-\w*f`,                                          // deletes untracked files
		`\bgit\s+checkout\s+(--\s+)?\.(\s|$)|\bgit\s+restore\s+.*\.(\s|$)`, // discards every change
		`\bgit\s+branch\s+.*(?-i:-D)\b|\bgit\s+stash\s+(drop|clear)\b`,
		`\bdrop\s+(table|database|schema)\b|\btruncate\s+(table\s+)?\w+|\bdelete\s+from\s+\w+\s*(;|$|")`,
		`\bdd\s+.*\bof=/dev/|\bmkfs\b`,
		`\b(kubectl|helm)\s+(delete|uninstall)\b|\bterraform\s+destroy\b`,
		`\bdocker\s+(system|volume)\s+prune\b|\bdocker\s+volume\s+rm\b`,
		`\bfind\b.*\s-delete\b`,
	}, "|"))
})

// isDestructive reports whether a shell command is one whose first run
// cannot be taken back.
func isDestructive(command string) bool { return destructive().MatchString(command) }

// proposedEnforce is the enforce a scan draft is proposed with: once when
// the incident hung, lost data or ran a destructive command, since a
// lesson given as context arrives only after the call it should have
// stopped; "" otherwise, or when the draft has no specific command to
// hold (a hold needs one).
func proposedEnforce(c scan.Candidate) string {
	re := commandRegex(c)
	if re == "" || !specific(re) {
		return ""
	}
	if c.Signal == scan.SignalHang || hasAnyTag(c.Tags, "severity:hang", "severity:data-loss", "severity:destructive") ||
		c.DataLoss() || isDestructive(c.Trigger) {
		return markdown.EnforceOnce
	}
	return ""
}

// specific reports whether a command regex requires a literal of two or
// more characters, as lint requires of a hold's target.
func specific(re string) bool {
	for _, l := range match.RequiredLiterals(re) {
		if len(l) >= 2 {
			return true
		}
	}
	return false
}

func hasAnyTag(tags []string, want ...string) bool {
	for _, t := range tags {
		for _, w := range want {
			if strings.EqualFold(t, w) {
				return true
			}
		}
	}
	return false
}
