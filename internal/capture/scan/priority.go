package scan

import (
	"strconv"
	"strings"
)

// maxTitle matches markdown.MaxTitle; scan stays free of the markdown
// package (and goldmark), which it needs for nothing else.
const maxTitle = 100

var priorityNames = map[string]int{"critical": 9, "high": 7, "medium": 5, "low": 2}

// parsePriority reads a band name or an integer 1-10; 0 when neither.
func parsePriority(s string) int {
	s = strings.ToLower(strings.TrimSpace(s))
	if p, ok := priorityNames[s]; ok {
		return p
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= 10 {
		return n
	}
	return 0
}
