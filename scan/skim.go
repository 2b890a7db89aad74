package scan

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A skimmer reads compact JSON without decoding it: it walks an object's
// keys and hands back each value's raw bytes, jumping over strings with
// IndexByte. Only the few values a detector needs are ever decoded, which
// keeps a full scan near the speed of grep on transcripts whose bulk is
// tool output.

// fields calls fn for each key of the object at the start of b (after
// whitespace) with the key's raw bytes (no quotes, still escaped) and the
// value's raw bytes. fn returns false to stop early. fields reports false
// when b is not a well-formed object up to where it stopped.
func fields(b []byte, fn func(key, val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end, ok := skipString(b, i)
		if !ok {
			return false
		}
		key := b[i+1 : end-1]
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		vend, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(key, b[i:vend]) {
			return true
		}
		i = skipWS(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// elements calls fn for each element of the array at the start of b.
func elements(b []byte, fn func(val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for i < len(b) {
		end, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(b[i:end]) {
			return true
		}
		i = skipWS(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the string that opens at b[i].
func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		j += k
		// An odd run of backslashes before the quote escapes it.
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j, true
		}
	}
}

// skipValue returns the index just after the value that starts at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return len(b), false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(b), false
	default: // number, true, false, null
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' {
			j++
		}
		return j, j > i
	}
}

// str decodes a raw JSON string value; anything else gives "". Invalid
// UTF-8 is replaced rather than rejected.
func str(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if utf8.Valid(inner) {
			return string(inner)
		}
		return strings.ToValidUTF8(string(inner), "\uFFFD")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return strings.ToValidUTF8(string(inner), "\uFFFD")
	}
	return s
}

// strPrefix decodes at most about n bytes of a raw JSON string value: the
// excerpt of a tool result without copying megabytes of output.
func strPrefix(raw []byte, n int) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if len(raw) <= n+2 {
		return str(raw)
	}
	cut := n + 1
	for try := 0; try < 4; try++ {
		var s string
		if json.Unmarshal(append(append([]byte(nil), raw[:cut]...), '"'), &s) == nil {
			return s
		}
		// The cut split an escape (\n, \uXXXX): end before the last backslash.
		i := bytes.LastIndexByte(raw[:cut], '\\')
		if i < 1 {
			break
		}
		cut = i
	}
	return strings.ToValidUTF8(string(raw[1:cut]), "\uFFFD")
}

func isTrue(raw []byte) bool { return string(raw) == "true" }
