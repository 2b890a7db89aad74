package textcut

import "strings"

// StripTerminal removes what a terminal acts on instead of showing
// (ECMA-48): escape sequences whole (CSI such as ESC[8m, which conceals
// what follows; OSC such as an OSC 8 link, up to BEL or ESC \; the other
// ESC forms and their 8-bit C1 equivalents), and every other control
// character but line feed and tab (a lone CR or a backspace rewrites what
// was printed). Text copied from a terminal session keeps what a reader
// saw. Hand-written: the grammar is a few lines and no library in lore's
// dependencies parses it.
func StripTerminal(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == 0x1b && i+1 < len(rs):
			i = sequenceEnd(rs, i+1, rs[i+1])
		case r >= 0x80 && r < 0xa0: // C1: CSI (0x9b), OSC (0x9d), ...
			i = sequenceEnd(rs, i, r-0x40)
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hasControl reports whether s holds a control character other than line
// feed and tab.
func hasControl(s string) bool {
	for _, r := range s {
		if (r < 0x20 || r >= 0x7f && r < 0xa0) && r != '\n' && r != '\t' {
			return true
		}
	}
	return false
}

// sequenceEnd is the index of the last rune of the escape sequence whose
// introducer (the byte after ESC, or a C1 rune's 7-bit form) is intro at
// rs[at].
func sequenceEnd(rs []rune, at int, intro rune) int {
	switch intro {
	case '[': // CSI: parameters and intermediates, then one final byte
		for i := at + 1; i < len(rs); i++ {
			if rs[i] >= 0x40 && rs[i] <= 0x7e {
				return i
			}
			if rs[i] < 0x20 || rs[i] > 0x7e { // cut short: what follows is text
				return i - 1
			}
		}
		return len(rs) - 1
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: a string up to BEL or ST
		for i := at + 1; i < len(rs); i++ {
			switch {
			case rs[i] == 0x07 || rs[i] == 0x9c:
				return i
			case rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '\\':
				return i + 1
			}
		}
		return len(rs) - 1
	}
	// ESC, intermediates (0x20-0x2f), a final byte.
	i := at
	for i < len(rs)-1 && rs[i] >= 0x20 && rs[i] <= 0x2f {
		i++
	}
	return i
}
