package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/buger/jsonparser"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// member is one call of an ObjectEach callback.
type member struct {
	Key, Value string
	Type       jsonparser.ValueType
	End        int
}

// errStop is what the callbacks of FuzzObjectEach return to stop early.
var errStop = errors.New("stop")

// members collects what each (objectEach or jsonparser.ObjectEach) gives
// for data, the callback stopping at call number stop (none when < 0).
func members(each func([]byte, func(k, v []byte, t jsonparser.ValueType, end int) error) error, data []byte, stop int) (got []member, err error) {
	err = each(data, func(k, v []byte, t jsonparser.ValueType, end int) error {
		got = append(got, member{string(k), string(v), t, end})
		if len(got) == stop {
			return errStop
		}
		return nil
	})
	return got, err
}

func jsonparserObjectEach(data []byte, fn func(k, v []byte, t jsonparser.ValueType, end int) error) error {
	return jsonparser.ObjectEach(data, fn)
}

// scanSamples are objects that hold the cases of jsonscan.go: escaped
// quotes, runs of backslashes before a quote, unicode escapes (in keys
// too), blocks whose strings hold braces and brackets, and breaks.
var scanSamples = []string{
	`{"a":"x\"y","b":"\\","c":"\\\"","d":"\\\\","e":"\\\\\"q\\\\"}`,
	`{"k\"ey":1,"se\u0073sion_id":"\u00e9\ud83d\ude00","\\":true,"":null}`,
	`{"o":{"s":"}{][","n":{"m":["]","\"}"]}},"a":[{"x":"]"},"[",["\\"]],"z":false}`,
	`{"o":{"a":[}],"b":1},"c":[{]}`,
	` { "a" : 1 , "b" : -2.5e3 , "c" : [ ] , "d" : { } } `,
	`{"a":1,}`, `{"a":1 "b":2}`, `{"a" 1}`, `{"a":}`, `{"a":tru}`, `{"a":nul,"b":1}`, `{"a":1x,"b":2}`,
	`{"a":"x`, `{"a":"x\"}`, `{"a":{"b":"}`, `{"a":[1,2`, `{"a":"\\\\\\"}`, `{"a`, `{`, `{"a":1,`, `{"a":1`,
	`{"k\q":1}`, `{"k\u12":1}`, `{'a':1}`, `{"a":'x'}`, `[1]`, ``, `  `, `{}`, `{} x`, `{"a":1}}`,
	`{"a":"line\nnext\ttab\/slash\b\f\r","b":"\uD83D\uDE00\uDBFF\uD800\uDC00x"}`,
}

// FuzzObjectEach: objectEach gives the calls and the error
// jsonparser.ObjectEach gives, on any bytes, with the callback running to
// the end or stopping it; or the same calls up to a value that is an
// object or array whose brackets do not nest, which objectEach refuses.
func FuzzObjectEach(f *testing.F) {
	for _, s := range append(append(append([]string{}, scanSamples...), inputSamples...), addedSamples...) {
		f.Add(s, -1)
		f.Add(s, 1)
	}
	f.Add(benchWriteInput(), -1)
	f.Add(strings.ReplaceAll(editInput(4<<10, true), "$ROOT", "/r"), 2)
	f.Fuzz(func(t *testing.T, s string, stop int) {
		data := []byte(s)
		var got, want []member
		var gotErr, wantErr error
		fuzzlimit.Run(t, func() { got, gotErr = members(objectEach, data, stop) })
		want, wantErr = members(jsonparserObjectEach, data, stop)
		if (gotErr != wantErr || !slices.Equal(got, want)) && !stricter(got, gotErr, want) {
			t.Errorf("%q:\nobjectEach           %v %+v\njsonparser.ObjectEach %v %+v", s, gotErr, got, wantErr, want)
		}
	})
}

// stricter reports whether objectEach refused (got, gotErr) the value
// after the calls it shares with ObjectEach's (want): a block that is not
// JSON, where ObjectEach reads on.
func stricter(got []member, gotErr error, want []member) bool {
	if gotErr != jsonparser.MalformedObjectError && gotErr != jsonparser.MalformedArrayError {
		return false
	}
	if len(want) <= len(got) || !slices.Equal(got, want[:len(got)]) {
		return false
	}
	m := want[len(got)]
	return (m.Type == jsonparser.Object || m.Type == jsonparser.Array) && !json.Valid([]byte(m.Value))
}

// unescapeSamples are string bodies: the one-letter escapes, runs of
// backslashes, unicode escapes and surrogates (well-formed or not), and
// escapes cut off at the end.
var unescapeSamples = []string{
	``, `plain`, `a\nb`, `\"quoted\"`, `\\\"`, `\\\\`, `\/\b\f\n\r\t`, `12345678\n12345678\"`, `1234567\\`,
	`\u00e9`, `x\ud83d\ude00y`, `\ud83d`, `\ude00`, `\ud83dx`, `\ud83d\u0041`, `\ud83d\u12`, `\u12`, `\uzzzz`,
	`\q`, `\'`, `abc\`, `abcdefgh\`, `\n\u00e9\n`, "tab\tnewline\nraw",
}

// FuzzUnescape: unescape decodes a string body as jsonparser.Unescape does
// and refuses what it refuses.
func FuzzUnescape(f *testing.F) {
	for _, s := range unescapeSamples {
		f.Add(s)
	}
	body, _, _, _ := jsonparser.Get([]byte(editInput(63<<10, true)), "content") // the Write's content, escaped
	f.Add(string(body))
	f.Fuzz(func(t *testing.T, s string) {
		var got []byte
		var gotErr error
		fuzzlimit.Run(t, func() { got, gotErr = unescape([]byte(s)) })
		want, wantErr := jsonparser.Unescape([]byte(s), nil)
		if gotErr != wantErr || !bytes.Equal(got, want) {
			t.Errorf("unescape(%q) = %q, %v; jsonparser.Unescape gives %q, %v", s, got, gotErr, want, wantErr)
		}
	})
}

// benchWriteInput is the stdin of the benchmark's 63 KiB Write.
func benchWriteInput() string {
	return `{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":` +
		strings.ReplaceAll(editInput(63<<10, true), "$ROOT", "/r") + `,"tool_use_id":"toolu_1"}`
}
