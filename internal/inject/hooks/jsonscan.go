package hooks

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/buger/jsonparser"
)

// Why lore has its own JSON scanner (measured with callgrind on the hook's
// 63 KiB Claude Code Write at 1,000 items): a Write sends the whole file as
// tool_input.content, a JSON string of code with an escaped newline on
// every line and many escaped quotes. jsonparser steps over such a string 8
// bytes at a time only up to its first backslash, then byte by byte; over
// an object (tool_input, in stdin) byte by byte; and its Unescape pays two
// calls per escape. ObjectEach over stdin cost 0.73 M instructions, over
// tool_input 0.72 M, Unescape 0.87 M: 2.3 M of the call's 6.95 M. Here a
// string is stepped over with bytes.IndexByte to its next quote and a
// backward count of the backslashes before it (easyjson's way), a block by
// its structural bytes with strings jumped over alike, and a string with
// only one-letter escapes is decoded 8 bytes a step: 0.17 M, 0.17 M and
// 0.47 M, the call 5.37 M. jsonparser still reads everything else.

// objectEach calls fn with each key (unescaped), value, type and the
// offset where the value ends, as jsonparser.ObjectEach(data, fn) does, and
// returns the error ObjectEach returns: fn's, or the one it gives where
// data breaks off (after the calls for the keys before). One difference:
// a value that is an object or array whose brackets do not nest is refused
// (see blockEnd). FuzzObjectEach holds the two to that.
func objectEach(data []byte, fn func(key, value []byte, t jsonparser.ValueType, end int) error) error {
	i := nextToken(data, 0)
	if i < 0 || data[i] != '{' {
		return jsonparser.MalformedObjectError
	}
	if i = nextToken(data, i+1); i < 0 {
		return jsonparser.MalformedJsonError
	}
	for {
		switch data[i] {
		case '"':
		case '}':
			return nil
		default:
			return jsonparser.MalformedObjectError
		}
		key, at, err := objectKey(data, i+1)
		if err != nil {
			return err
		}
		v, t, end, err := scanValue(data, at)
		if err == nil {
			err = fn(key, v, t, end)
		}
		if err != nil {
			return err
		}
		if i, err = nextMember(data, end); i < 0 || err != nil {
			return err
		}
	}
}

// objectKey reads the key whose body starts at data[i] and the colon after
// it: the key, unescaped, and the offset after the colon.
func objectKey(data []byte, i int) (key []byte, at int, err error) {
	end := stringEnd(data, i)
	if end < 0 {
		return nil, 0, jsonparser.MalformedJsonError
	}
	key = data[i : end-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		var buf [64]byte
		if key, err = jsonparser.Unescape(key, buf[:]); err != nil {
			return nil, 0, jsonparser.MalformedStringEscapeError
		}
	}
	at = nextToken(data, end)
	if at < 0 || data[at] != ':' {
		return nil, 0, jsonparser.MalformedJsonError
	}
	return key, at + 1, nil
}

// scanValue reads the value after offset i as jsonparser.Get(data[i:])
// does: the value (a string's body), its type and the offset where it ends.
// Numbers, booleans and null are Get's: they are short.
func scanValue(data []byte, i int) ([]byte, jsonparser.ValueType, int, error) {
	start := nextToken(data, i)
	if start < 0 {
		return nil, jsonparser.NotExist, 0, jsonparser.MalformedJsonError
	}
	var end int
	var t jsonparser.ValueType
	var bad error
	switch data[start] {
	case '"':
		t, bad, end = jsonparser.String, jsonparser.MalformedStringError, stringEnd(data, start+1)
	case '{':
		t, bad, end = jsonparser.Object, jsonparser.MalformedObjectError, blockEnd(data, start)
	case '[':
		t, bad, end = jsonparser.Array, jsonparser.MalformedArrayError, blockEnd(data, start)
	default:
		v, t, n, err := jsonparser.Get(data[start:])
		return v, t, start + n, err
	}
	if end < 0 {
		return nil, t, 0, bad
	}
	v := data[start:end]
	if t == jsonparser.String {
		v = v[1 : len(v)-1]
	}
	return v[:len(v):len(v)], t, end, nil
}

// nextMember steps over the comma after a value that ends at i to the next
// key: its offset, or -1 at the object's closing brace.
func nextMember(data []byte, i int) (int, error) {
	i = nextToken(data, i)
	if i < 0 {
		return -1, jsonparser.MalformedArrayError
	}
	switch data[i] {
	case '}':
		return -1, nil
	case ',':
	default:
		return -1, jsonparser.MalformedObjectError
	}
	if i = nextToken(data, i+1); i < 0 {
		return -1, jsonparser.MalformedArrayError
	}
	return i, nil
}

// nextToken is the offset of the first byte from i on that is not JSON
// white space, or -1.
func nextToken(data []byte, i int) int {
	for ; i < len(data); i++ {
		switch data[i] {
		case ' ', '\n', '\r', '\t':
		default:
			return i
		}
	}
	return -1
}

// stringEnd is the offset just past the closing quote of the string whose
// body starts at data[i], or -1: the first quote after an even run of
// backslashes (none, or escaped backslashes).
func stringEnd(data []byte, i int) int {
	for from := i; ; {
		q := bytes.IndexByte(data[from:], '"')
		if q < 0 {
			return -1
		}
		q += from
		b := q
		for b > i && data[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1
		}
		from = q + 1
	}
}

// blockEnd is the offset just past the object or array that opens at
// data[i], or -1, strings jumped over. It checks that braces and brackets
// nest and nothing else: the value is read again by whoever wants it.
// Stricter than jsonparser's, which counts only the kind it opened with
// and so ends {"a":[}] at its first brace: the callers read such input
// with EachKey, as they did before they used ObjectEach (whose reading of
// it FuzzEachReadsAsWalk and FuzzAddedValues found to differ from EachKey's).
func blockEnd(data []byte, i int) int {
	var buf [16]byte
	shut := buf[:0] // the closing bytes awaited, innermost last
	for ; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			end := stringEnd(data, i+1)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '{', '[':
			shut = append(shut, c+2) // '}', ']'
		case '}', ']':
			if len(shut) == 0 || shut[len(shut)-1] != c {
				return -1
			}
			if shut = shut[:len(shut)-1]; len(shut) == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// simpleEscapes decodes the one-letter escapes; 0 for any other byte.
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescape decodes the string body v as jsonparser.Unescape(v, nil) does:
// itself when nothing is escaped, a copy decoded here when only one-letter
// escapes are, and Unescape's result for any other (\u escapes, which are
// rare in code, and malformed ones). FuzzUnescape holds the two to the
// same. Code has an escape every few words, so the bytes between escapes
// are copied 8 at a time in the loop, not by a call per escape.
func unescape(v []byte) ([]byte, error) {
	i := bytes.IndexByte(v, '\\')
	if i < 0 {
		return v, nil
	}
	out := make([]byte, len(v)) // never longer than v
	j := copy(out, v[:i])
	for i < len(v) {
		switch {
		case v[i] == '\\':
			if i+1 == len(v) || simpleEscapes[v[i+1]] == 0 {
				return jsonparser.Unescape(v, nil)
			}
			out[j] = simpleEscapes[v[i+1]]
			i, j = i+2, j+1
		case i+8 <= len(v): // and so j+8 <= len(out): j <= i
			w := binary.LittleEndian.Uint64(v[i : i+8])
			binary.LittleEndian.PutUint64(out[j:j+8], w)
			n := plainBytes(w)
			i, j = i+n, j+n
		default:
			out[j] = v[i]
			i, j = i+1, j+1
		}
	}
	return out[:j], nil
}

// plainBytes is how many of the 8 bytes of w (little-endian) come before
// the first backslash.
func plainBytes(w uint64) int {
	const ones, highs, backslashes = 0x0101010101010101, 0x8080808080808080, 0x5c5c5c5c5c5c5c5c
	x := w ^ backslashes // a zero byte for each backslash
	// The lowest byte flagged is the first zero byte: a false flag can only
	// follow a true one.
	return int(uint(bits.TrailingZeros64((x-ones)&^x&highs)) / 8)
}
