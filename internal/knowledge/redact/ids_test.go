package redact

import (
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// uuid returns a random UUID of version 4 or 7 (RFC 9562): Claude Code
// names a session by a v4, Codex its rollouts by a v7 (v4 before 0.40).
func uuid(t *testing.T, version int, at time.Time) string {
	t.Helper()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	if version == 7 {
		ms := at.UnixMilli()
		for i := range 6 {
			b[i] = byte(ms >> (8 * (5 - i)))
		}
	}
	b[6] = b[6]&0x0f | byte(version<<4)
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// idNames are the names and references with ids that items carry, as the
// tools that make them spell them at the time at.
func idNames(t *testing.T, at time.Time) map[string]string {
	stamp := at.Format("2006-01-02T15-04-05")
	return map[string]string{
		// a scan draft's Evidence line, review.go's "- <file>:<line>: <text>"
		"codex v7":  fmt.Sprintf("- rollout-%s-%s.jsonl:12: Bash: pytest -x", stamp, uuid(t, 7, at)),
		"codex v4":  fmt.Sprintf("- rollout-%s-%s.jsonl:3: error: exit 1", stamp, uuid(t, 4, at)),
		"codex dir": fmt.Sprintf("see ~/.codex/sessions/%s/rollout-%s-%s.jsonl", at.Format("2006/01/02"), stamp, uuid(t, 7, at)),
		"gemini":    fmt.Sprintf("- session-%s-%s.jsonl:40: user: no", at.Format("2006-01-02T15-04"), uuid(t, 4, at)[:8]),
		"claude":    fmt.Sprintf("- %s.jsonl:7: Bash: go test ./...", uuid(t, 4, at)),
		"claude sub": fmt.Sprintf("~/.claude/projects/-home-u-app/%s/subagents/agent-%s.jsonl",
			uuid(t, 4, at), uuid(t, 4, at)[:8]),
		// an item imported from lessons-learned
		"lessons-learned": fmt.Sprintf("imported: lessons-learned:%s/edits", ulid.MustNew(ulid.Timestamp(at), rand.Reader)),
		"ulid path":       fmt.Sprintf("lessons/%s/edits/%s.json", ulid.MustNew(ulid.Timestamp(at), rand.Reader), ulid.MustNew(ulid.Timestamp(at), rand.Reader)),
	}
}

// Transcript names in Evidence and lessons-learned references are no
// secrets: before, the entropy test took 26 of 30 Codex rollout names, 1
// of 30 Gemini CLI names and every lessons-learned:<ULID>/edits for one.
func TestIDNamesAreNoSecrets(t *testing.T) {
	flagged := map[string]int{}
	at := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2000 {
		for kind, text := range idNames(t, at.Add(time.Duration(i)*97*time.Hour+time.Duration(i)*time.Second)) {
			spans, err := Find(text)
			if err != nil {
				t.Fatal(err)
			}
			if len(spans) > 0 {
				if flagged[kind]++; flagged[kind] <= 2 {
					t.Errorf("%s: %q taken for a secret: %+v", kind, text, spans)
				}
			}
		}
	}
	if len(flagged) > 0 {
		t.Errorf("flagged of 2000 each: %v", flagged)
	}
}

// A secret beside an id is found all the same: only the ids are taken
// out of the token before it is judged. The secret is one the heuristic
// finds alone (a random draw without digits, one in a few hundred, is
// judged a word-like token whatever stands beside it).
func TestSecretBesideAnIDIsFound(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 11, 12, 0, time.UTC)
	secret := func() string {
		for {
			s := b64(t, 33)
			if spans, err := Find("value " + s + " end"); err == nil && len(spans) == 1 {
				return s
			}
		}
	}
	for _, text := range []string{
		fmt.Sprintf("rollout-%s-%s", uuid(t, 7, at), secret()),
		fmt.Sprintf("%s/%s", ulid.MustNew(ulid.Timestamp(at), rand.Reader), secret()),
		fmt.Sprintf("%s%s", secret(), at.Format("2006-01-02T15-04-05")),
	} {
		spans, err := Find("value " + text + " end")
		if err != nil || len(spans) != 1 || spans[0].Kind != "high-entropy" {
			t.Errorf("%q: %+v %v", text, spans, err)
		}
	}
}

// Only a ULID made by a clock is an id: the same alphabet with a time
// past 2200 is judged as any token.
func TestULIDTime(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 11, 12, 0, time.UTC)
	id := ulid.MustNew(ulid.Timestamp(at), rand.Reader).String()
	if !ulidTime(id) || ulidTime("7"+id[1:]) || ulidTime("00000000"+id[8:]) {
		t.Errorf("ulidTime(%s)", id)
	}
	if got := withoutIDs("x/" + id + "/edits"); got != "x/"+idGap+"/edits" {
		t.Errorf("withoutIDs: %q", got)
	}
}
