package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/buger/jsonparser"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/lorepath"
)

// maxLine bounds a line Read parses; a longer one is skipped. Append
// writes lines of a few hundred bytes.
const maxLine = 1 << 20

// Read returns every kept entry of the ledger of the work tree at root,
// oldest first (the rotated files first); a torn, foreign or unparsable
// line is skipped and counted. No ledger is no entries. It holds the
// ledger's lock, when there is one, so a rotation does not move files
// under it.
func Read(root string) (entries []Entry, skipped int, err error) {
	dir := lorepath.Abs(root, lorepath.Local)
	if lock, err := os.Open(filepath.Join(dir, lorepath.LedgerLock)); err == nil {
		defer lock.Close()
		if err := filewrite.Lock(lock); err != nil {
			return nil, 0, fmt.Errorf("ledger: %w", err)
		}
	}
	for n := Kept; n >= 0; n-- {
		bad, err := readFile(file(dir, n), &entries)
		skipped += bad
		if err != nil {
			return nil, 0, fmt.Errorf("ledger: %w", err)
		}
	}
	return entries, skipped, nil
}

// readFile appends the entries of one ledger file (none when it is
// missing) and returns how many lines it skipped.
func readFile(path string, entries *[]Entry) (skipped int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	err = eachLine(bufio.NewReaderSize(f, 64<<10), func(line []byte) {
		e, bad := parseLine(line)
		*entries = append(*entries, e...)
		skipped += bad
	})
	if err != nil {
		return skipped, fmt.Errorf("read %s: %w", path, err)
	}
	return skipped, nil
}

// eachLine calls f with each line of r, without its newline; a line over
// maxLine is passed as nil.
func eachLine(r *bufio.Reader, f func(line []byte)) error {
	var long []byte
	over := false
	for {
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			if len(long) > maxLine {
				over, long = true, long[:0]
			}
			continue
		}
		line := chunk
		if len(long) > 0 {
			line = append(long, chunk...)
			long = long[:0]
		}
		switch line = bytes.TrimSpace(line); {
		case over:
			f(nil)
			over = false
		case len(line) > 0:
			f(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineStart opens every line Append writes.
var lineStart = []byte(`{"t":`)

// parseLine returns the entry of a line, or none and 1 skipped. A line
// whose writer was killed mid-write has no newline, so the next call's
// line is glued to it: that line is still read, from its own start.
func parseLine(line []byte) (entries []Entry, skipped int) {
	if e, ok := parseEntry(line); ok {
		return []Entry{e}, 0
	}
	if i := bytes.LastIndex(line, lineStart); i > 0 {
		if e, ok := parseEntry(line[i:]); ok {
			return []Entry{e}, 1
		}
	}
	return nil, 1
}

// parseEntry parses one line; !ok for anything but a whole entry.
func parseEntry(line []byte) (e Entry, ok bool) {
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return Entry{}, false
	}
	err := jsonparser.ObjectEach(line, func(k, v []byte, t jsonparser.ValueType, _ int) error {
		return e.set(string(k), v, t)
	})
	return e, err == nil && !e.Time.IsZero() && e.Agent != "" && e.Event != ""
}

// errForeign stops parsing a line whose key has the wrong type.
var errForeign = errors.New("not a ledger entry")

// set stores the value of key; unknown keys are left for a newer lore.
func (e *Entry) set(key string, v []byte, t jsonparser.ValueType) error {
	if key == "t" {
		s, err := stringOf(v, t)
		if err == nil {
			e.Time, err = time.Parse(time.RFC3339, s)
		}
		return err
	}
	if p := e.stringField(key); p != nil {
		var err error
		*p, err = stringOf(v, t)
		return err
	}
	if p := e.listField(key); p != nil {
		return appendStrings(p, v, t)
	}
	return nil
}

func (e *Entry) stringField(key string) *string {
	switch key {
	case "agent":
		return &e.Agent
	case "event":
		return &e.Event
	case "ctx":
		return &e.Context
	case "call":
		return &e.Call
	case "tool":
		return &e.Tool
	}
	return nil
}

func (e *Entry) listField(key string) *[]string {
	switch key {
	case "injected":
		return &e.Injected
	case "held":
		return &e.Held
	case "denied":
		return &e.Denied
	case "dropped":
		return &e.Dropped
	case "matched":
		return &e.Matched
	}
	return nil
}

func stringOf(v []byte, t jsonparser.ValueType) (string, error) {
	if t != jsonparser.String {
		return "", errForeign
	}
	return jsonparser.ParseString(v)
}

// appendStrings appends the strings of the array v to list.
func appendStrings(list *[]string, v []byte, t jsonparser.ValueType) error {
	if t != jsonparser.Array {
		return errForeign
	}
	var bad error
	_, err := jsonparser.ArrayEach(v, func(x []byte, xt jsonparser.ValueType, _ int, _ error) {
		s, err := stringOf(x, xt)
		if err != nil {
			bad = err
			return
		}
		*list = append(*list, s)
	})
	if err != nil {
		return err
	}
	return bad
}
