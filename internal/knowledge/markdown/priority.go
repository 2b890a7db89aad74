package markdown

import (
	"fmt"
	"strconv"
	"strings"
)

// Priority is an item's priority on the 1-10 scale. Names map to numbers for
// ordering: critical 9, high 7, medium 5, low 2 (docs/design.md, Priority
// bands).
type Priority int

// DefaultPriority is used when an item sets none.
const DefaultPriority Priority = 5

var priorityNames = map[string]Priority{"critical": 9, "high": 7, "medium": 5, "low": 2}

// ParsePriority accepts a band name (case-insensitive) or an integer 1-10.
func ParsePriority(s string) (Priority, error) {
	s = strings.TrimSpace(s)
	if p, ok := priorityNames[strings.ToLower(s)]; ok {
		return p, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 10 {
		return 0, fmt.Errorf("priority %q: want critical, high, medium, low or an integer 1-10", s)
	}
	return Priority(n), nil
}

// Band names the priority's band: critical 9-10, high 7-8, medium 4-6, low 1-3.
func (p Priority) Band() string {
	switch {
	case p >= 9:
		return "critical"
	case p >= 7:
		return "high"
	case p >= 4:
		return "medium"
	default:
		return "low"
	}
}

// Multiplier is the score multiplier of the priority's band (docs/design.md,
// Priority bands).
func (p Priority) Multiplier() float64 {
	switch p.Band() {
	case "critical":
		return 2.0
	case "high":
		return 1.5
	case "medium":
		return 1.0
	default:
		return 0.5
	}
}

func (p Priority) String() string { return p.Band() }

// MoreImportant is lore's one order of items, most important first:
// higher priority, then higher confidence, then the older id (ids are
// ULIDs, so the order of creation), which makes the order total. The
// session-start blocks and the review queue follow it.
func MoreImportant(a, b *Item) bool {
	return Ranked(a.Priority, a.Confidence, a.ID, b.Priority, b.Confidence, b.ID)
}

// Ranked is MoreImportant of an item (priority p, confidence c, id) and
// another (p2, c2, id2), for what keeps those facts without the item.
func Ranked(p Priority, c float64, id string, p2 Priority, c2 float64, id2 string) bool {
	if p != p2 {
		return p > p2
	}
	if c != c2 {
		return c > c2
	}
	return id < id2
}
