package markdown

import "bytes"

// ConflictMarkers returns the 1-based lines of data that hold git's merge
// conflict markers as git writes them, at the start of a line: "<<<<<<<"
// and ">>>>>>>" (then a space and a label, or the line's end), "|||||||"
// (diff3's base), and "=======" alone on its line between an opening and a
// closing marker (elsewhere it underlines a Setext heading).
func ConflictMarkers(data []byte) []int {
	var out []int
	open := false
	n := -1
	for line := range bytes.SplitSeq(data, []byte("\n")) { // lines of every item a build reads: none copied
		n++
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case marker(line, '<'):
			open = true
		case marker(line, '|'):
		case marker(line, '>'):
			open = false
		case open && string(line) == "=======":
		default:
			continue
		}
		out = append(out, n+1)
	}
	return out
}

// marker: line is seven c's, alone or followed by a space and a label.
func marker(line []byte, c byte) bool {
	if len(line) < 7 || len(line) > 7 && line[7] != ' ' {
		return false
	}
	for _, b := range line[:7] {
		if b != c {
			return false
		}
	}
	return true
}

// conflictError is the error of a file that does not parse and holds
// conflict markers: the markers are the cause, whatever the parser says.
func conflictError(path string, data []byte) *Error {
	lines := ConflictMarkers(data)
	if len(lines) == 0 {
		return nil
	}
	return errorf(path, lines[0], "conflict", "unresolved git merge conflict (%d marker line(s) from here): keep one side or both, delete the <<<<<<<, ======= and >>>>>>> lines, then lore lint", len(lines))
}
