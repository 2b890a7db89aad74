package manifest

import (
	"bytes"
	"testing"
)

// containsFold is bytes.Contains on the ASCII-lowercased text, without the
// copy: the probe's literal check on a 64 KiB edit.
func FuzzContainsFold(f *testing.F) {
	for _, seed := range [][2]string{
		{"data = client.Fetch_JSON(url)", "fetch_json"},
		{"DATETIME.UTCNOW()", "utcnow("},
		{"aAaAab", "aab"},
		{"Ab", "ab"}, {"b", "ab"}, {"", ""}, {"x", ""},
		{"@MOCK.patch(\"app.", "mock.patch(\"app."},
		{"é Éa", "éa"}, {"Z[z", "z["}, {"1234", "34"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, text, lit string) {
		l := []byte(lit)
		for i, c := range l {
			l[i] = lower(c) // literals are stored lower-cased
		}
		low := []byte(text)
		for i, c := range low {
			low[i] = lower(c)
		}
		if got, want := containsFold(text, l), bytes.Contains(low, l); got != want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", text, l, got, want)
		}
	})
}
