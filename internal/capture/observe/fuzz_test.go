package observe

import (
	"bytes"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzReadRecords: any bytes read without error or panic, every line is
// either a record or counted broken, and folding what was read never
// yields a confidence outside 0..0.95.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"type":"pitfall","pattern":"a b","count":1,"last_seen":"2026-03-01T09:00:00Z","status":"observing","quality_ok":true}` + "\n"))
	f.Add([]byte(`{"type":"workflow","pattern":"x","count":2,"last_seen":"2026-03-01T09:00:00Z"}` + "\n" + `{"type":"workflow","pattern":"x","count":0,"last_seen":"2026-03-02T09:00:00Z","status":"deprecated","penalty":0.3,"artifact":"a@b"}`))
	f.Add([]byte("{\"type\":\"pitf\n\n\r\nnot json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []Record
		var st Stats
		var err error
		var folded []*Observation
		fuzzlimit.Run(t, func() {
			if recs, st, err = ReadRecords(bytes.NewReader(data)); err == nil {
				folded = Fold(recs)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if st.Records != len(recs) || st.Records+st.Broken > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("stats %+v for %d lines", st, bytes.Count(data, []byte("\n"))+1)
		}
		for _, o := range folded {
			if o.Confidence < 0 || o.Confidence > 0.95 {
				t.Fatalf("confidence %v", o.Confidence)
			}
		}
	})
}
