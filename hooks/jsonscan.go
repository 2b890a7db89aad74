package hooks

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/buger/jsonparser"
)

// lore's own object scanner: jsonparser.ObjectEach's walk, step for step,
// with its two costly steps done the way easyjson does them. A Claude Code
// Write sends the whole file as tool_input.content, a JSON string of tens
// of KiB of code with an escaped newline on every line and many escaped
// quotes. jsonparser steps over such a string 8 bytes at a time only up to
// its first backslash, then byte by byte, and over an object (tool_input
// in stdin) byte by byte; and Unescape pays a function call per escape. A
// string is stepped over here with bytes.IndexByte to its next quote and a
// backward count of the backslashes before that quote; a block by its
// structural bytes, strings jumped over the same way; a string with only
// the eight one-letter escapes is decoded in place of Unescape. Measured
// with callgrind on the hook's 63 KiB Write at 1,000 items: ObjectEach
// over stdin 0.73 M instructions, ObjectEach over tool_input 0.72 M and
// Unescape 0.87 M of 6.96 M in all; here TODO.
//
// objectEach calls fn with each key (unescaped), value, type and the
// offset where the value ends, as jsonparser.ObjectEach(data, fn) does, and
// returns the error ObjectEach returns: fn's, or the one it gives where
// data breaks off (after the calls for the keys before). FuzzObjectEach
// holds the two to the same calls and errors.
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
	end := -1
	var t jsonparser.ValueType
	var bad error
	switch data[start] {
	case '"':
		t, bad, end = jsonparser.String, jsonparser.MalformedStringError, stringEnd(data, start+1)
	case '{':
		t, bad, end = jsonparser.Object, jsonparser.MalformedObjectError, blockEnd(data, start, '{', '}')
	case '[':
		t, bad, end = jsonparser.Array, jsonparser.MalformedArrayError, blockEnd(data, start, '[', ']')
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
// data[i], or -1. As jsonparser's, it counts only open and shut (strings
// jumped over) and checks nothing else: the value is read again by whoever
// wants it.
func blockEnd(data []byte, i int, open, shut byte) int {
	level := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := stringEnd(data, i+1)
			if end < 0 {
				return -1
			}
			i = end - 1
		case open:
			level++
		case shut:
			if level--; level == 0 {
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
