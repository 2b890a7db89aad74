// Package textcut shapes text the way lore shows it: cut to a byte budget
// at a line boundary (or a rune boundary for one long line), with a note
// saying that it did, or folded onto one line, or without the terminal
// control sequences a transcript copied. It links only the standard library, so the
// lean hook and the compiler share it.
package textcut

import (
	"strings"
	"unicode/utf8"
)

// Cut returns s when it fits in max bytes, else its head and note within
// max bytes: cut at the last line break in the second half of the room,
// else at a rune boundary.
func Cut(s string, max int, note string) string {
	if len(s) <= max {
		return s
	}
	cut := max - len(note)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], '\n'); i > cut/2 {
		cut = i
	}
	return s[:cut] + note
}

// OneLine folds s onto one line: every run of white space, line breaks
// included, becomes one space, and none leads or trails.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
