package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/store/sources"
)

func TestSourceFindings(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		src   Source
		level Level
		says  string
	}{
		{Source{Name: "acme"}, Action, "acme was never fetched"},
		{Source{Name: "acme", State: sources.State{Error: "auth failed", Attempted: now}}, Action, "never fetched (last try"},
		{Source{Name: "acme", State: sources.State{Commit: "0123456789abcdef", Fetched: now.Add(-time.Hour)}}, OK, "acme at 0123456789ab"},
		{Source{Name: "acme", State: sources.State{Commit: "0123456789abcdef", Fetched: now.Add(-48 * time.Hour), Error: "no route"}}, Info, "cannot be fetched since"},
		{Source{Name: "acme", State: sources.State{Commit: "0123456789abcdef", Fetched: now.Add(-8 * 24 * time.Hour), Error: "no route"}}, Action, "cannot be fetched since"},
		{Source{Name: "acme", State: sources.State{Commit: "0123456789abcdef", Fetched: now}, Gone: true}, Action, "acme's copy (0123456789ab) is gone"},
	} {
		f := sourceFinding(tc.src, now)
		if f.Level != tc.level || !strings.Contains(f.Message, tc.says) || f.Check != "sources" {
			t.Errorf("%+v: %+v, want %s saying %q", tc.src, f, tc.level, tc.says)
		}
	}
}
