package scan

import (
	"bytes"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzLineReader: the transcript line reader ends on any bytes, returns
// exactly the newline-terminated lines, and leaves its offset after the last.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":2}\npartial"))
	f.Add([]byte("\n\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st Stats
		var lines [][]byte
		var offset int64
		fuzzlimit.Run(t, func() {
			lr := newLineReader(bytes.NewReader(data), 0, 0, &st)
			defer lr.release()
			for l, ok := lr.next(); ok; l, ok = lr.next() {
				lines = append(lines, bytes.Clone(l))
			}
			offset = lr.offset
		})
		want := bytes.Split(data, []byte("\n"))
		want = want[:len(want)-1] // the unterminated rest is left for the next scan
		if len(lines) != len(want) || offset != int64(bytes.LastIndexByte(data, '\n')+1) {
			t.Fatalf("%d lines at offset %d, want %d", len(lines), offset, len(want))
		}
		for i := range want {
			if !bytes.Equal(lines[i], want[i]) {
				t.Fatalf("line %d = %q, want %q", i, lines[i], want[i])
			}
		}
	})
}
