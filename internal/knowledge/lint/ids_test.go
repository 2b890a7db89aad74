package lint

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// randomUUID is a version 4 or 7 UUID (RFC 9562) made at t.
func randomUUID(tb testing.TB, version int, at time.Time) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	if version == 7 {
		for i := range 6 {
			b[i] = byte(at.UnixMilli() >> (8 * (5 - i)))
		}
	}
	b[6] = b[6]&0x0f | byte(version<<4)
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// A scan draft names its transcripts in its Evidence section, and an
// imported item its lessons-learned source: 30 drafts of each client, as
// review writes them, and 30 imported items lint without an error (the
// secret check took 26 of 30 Codex names for secrets, and the build
// dropped the item).
func TestEvidenceNamesAreNoSecrets(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 11, 12, 0, time.UTC)
	var st Store
	for i := range 30 {
		at = at.Add(time.Duration(i) * 7 * time.Hour)
		evidence := strings.Join([]string{
			fmt.Sprintf("- rollout-%s-%s.jsonl:%d: Bash: pytest -x", at.Format("2006-01-02T15-04-05"), randomUUID(t, 7, at), i+3),
			fmt.Sprintf("- session-%s-%s.jsonl:%d: error: exit status 1", at.Format("2006-01-02T15-04"), randomUUID(t, 4, at)[:8], i+9),
			fmt.Sprintf("- %s.jsonl:%d: user: no, run it with -x", randomUUID(t, 4, at), i+1),
		}, "\n")
		id := ulid.MustNew(ulid.Timestamp(at), rand.Reader).String()
		st.Items = append(st.Items,
			File{fmt.Sprintf(".lore/lessons/scan-%d.md", i), []byte(item(id, "lesson", "", "", "## Mistake\nIt hung.\n\n## Fix\nUse -x.\n\n## Evidence\n"+evidence+"\n"))},
			File{fmt.Sprintf(".lore/lessons/imported-%d.md", i), []byte(item(ulid.MustNew(ulid.Timestamp(at), rand.Reader).String(), "lesson", "",
				"imported: lessons-learned:"+ulid.MustNew(ulid.Timestamp(at), rand.Reader).String()+"/edits\n", "## Fix\nQuote it.\n"))})
	}
	for _, f := range Check(st) {
		if f.Severity == Error {
			t.Errorf("%s", f)
		}
	}
}
