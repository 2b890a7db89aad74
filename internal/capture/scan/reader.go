package scan

import (
	"bufio"
	"errors"
	"io"
	"sync"
)

// MaxLine is the longest transcript line read; longer lines (tool output
// of tens of MB) are skipped and counted, and the rest of the file is kept.
const MaxLine = 8 << 20

// Stats count what a scan read and what it had to skip. Nothing here is
// ever fatal.
type Stats struct {
	Files     int   `json:"files"`
	Bytes     int64 `json:"bytes"`
	Lines     int   `json:"lines"`
	BadJSON   int   `json:"badJSON"`   // not a JSON object
	TooLong   int   `json:"tooLong"`   // over MaxLine
	Truncated int   `json:"truncated"` // unterminated last line left for the next scan
	Unknown   int   `json:"unknown"`   // JSON of a type no reader knows
	Errors    int   `json:"errors"`    // files that could not be read
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Bytes += o.Bytes
	s.Lines += o.Lines
	s.BadJSON += o.BadJSON
	s.TooLong += o.TooLong
	s.Truncated += o.Truncated
	s.Unknown += o.Unknown
	s.Errors += o.Errors
}

// lineReader yields complete lines with a per-line cap and tracks the byte
// offset just after the last complete line.
type lineReader struct {
	r      *bufio.Reader
	buf    []byte
	offset int64 // after the last complete line returned or skipped
	line   int   // number of that line
	stats  *Stats
}

// readers are reused across files: a fresh 1 MB buffer per file cost more
// in zeroing than small files take to scan.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 1<<20) }}

func newLineReader(r io.Reader, offset int64, line int, st *Stats) *lineReader {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	return &lineReader{r: br, offset: offset, line: line, stats: st}
}

// release returns the buffer for reuse; the reader must not be used after.
func (lr *lineReader) release() {
	lr.r.Reset(nil)
	readers.Put(lr.r)
	lr.r = nil
}

// next returns the next complete line without its newline, or ok=false at
// the end. An unterminated last line is not consumed (a writer may still be
// appending it): it is counted as truncated and read again next time.
func (lr *lineReader) next() (line []byte, ok bool) {
	for {
		lr.buf = lr.buf[:0]
		tooLong := false
		var n int64
		for {
			chunk, err := lr.r.ReadSlice('\n')
			n += int64(len(chunk))
			if !tooLong {
				if len(lr.buf)+len(chunk) > MaxLine {
					tooLong, lr.buf = true, lr.buf[:0]
				} else if err == nil && len(lr.buf) == 0 {
					// The common case: the whole line sits in bufio's buffer.
					lr.offset += n
					lr.line++
					lr.stats.Lines++
					return chunk[:len(chunk)-1], true
				} else {
					lr.buf = append(lr.buf, chunk...)
				}
			}
			if err == nil {
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if n > 0 {
				lr.stats.Truncated++
			}
			return nil, false
		}
		lr.offset += n
		lr.line++
		lr.stats.Lines++
		if tooLong {
			lr.stats.TooLong++
			continue
		}
		return lr.buf[:len(lr.buf)-1], true
	}
}
