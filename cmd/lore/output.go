package main

import (
	"encoding/json"
	"strings"
)

// Printing in lore goes through Globals: Stdout and Stderr, the one
// terminal decision made in newGlobals (Color), and the helpers in this
// file. Domain packages return data; the print_*.go files lay it out.
// No width is decided: tables are aligned by text/tabwriter, lines are
// never wrapped, so a pipe gets what a terminal gets, minus the colour.

// ANSI styles for paint.
const (
	styleBold   = "1"
	styleRed    = "31"
	styleYellow = "33"
)

// paint wraps s in an ANSI style when stdout takes colour, and is the
// one place lore writes escape codes.
func (g *Globals) paint(style, s string) string {
	if !g.Color {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// printJSON is lore's one --json writer: one document indented two spaces,
// with &, < and > left as they are (a command line reads better unescaped,
// and nothing renders this output as HTML).
func (g *Globals) printJSON(v any) error {
	enc := json.NewEncoder(g.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printJSONLines writes one compact document per line, for outputs that
// are streams of records (lore scan --json), so a reader can take them
// line by line.
func printJSONLines[T any](g *Globals, vs []T) error {
	enc := json.NewEncoder(g.Stdout)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return nil
}

// visible is item text made safe to print on a terminal (docs/design.md,
// What a reviewer cannot see): each control character but line feed and
// tab becomes its Unicode control picture (ESC shows as ␛, CR as ␍), so an
// escape sequence in an item can neither hide, recolour, link nor rewrite
// what show, list and review print, and the reader sees it is there.
func visible(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return 0x2421
		case r >= 0x80 && r < 0xa0: // C1, 8-bit CSI and OSC among them
			return 0xfffd
		}
		return r
	}, s)
}
