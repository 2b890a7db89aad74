package doctor

import (
	"fmt"
	"time"

	"github.com/lore-agents/lore/internal/store/sources"
)

// Source is an organisation store a config names, as its last fetches
// left it (docs/design.md, Scopes and organisation stores): the commit in
// use ("" when never fetched), the last successful fetch, the last
// attempt and its error.
type Source struct {
	Name string
	sources.State
	Gone bool // fetched, but the checkout in use is no longer in the cache
	// LeftOut is a config's problem that leaves the source out (a
	// misspelt key, a bad name), with where it is: its items reach no
	// agent, whatever its copy.
	LeftOut string
}

// staleAfter is how long a source may fail to fetch before doctor asks
// for action: a laptop offline for a weekend is not broken.
const staleAfter = 7 * 24 * time.Hour

// sourcesCheck reports each source's freshness: never fetched (its items
// reach no agent), failing since its last good fetch, or current.
func sourcesCheck(env Env, add func(Finding)) {
	if env.Sources == nil {
		return
	}
	list, err := env.Sources()
	if err != nil {
		add(Finding{"sources", Action, fmt.Sprintf("cannot read the sources: %v", err), "lore sync"})
		return
	}
	now := env.Now
	if now.IsZero() {
		now = time.Now()
	}
	for _, s := range list {
		add(sourceFinding(s, now))
	}
}

func sourceFinding(s Source, now time.Time) Finding {
	if s.LeftOut != "" {
		return Finding{"sources", Action, s.LeftOut, "fix the config: lore lint names each problem"}
	}
	day := func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }
	switch {
	case s.Gone:
		return Finding{"sources", Action, fmt.Sprintf("%s's copy (%.12s) is gone from the cache: its items reach no agent", s.Name, s.Commit), "lore sync"}
	case s.Commit == "" && s.Error != "":
		return Finding{"sources", Action, fmt.Sprintf("%s was never fetched (last try %s: %s): its items reach no agent", s.Name, day(s.Attempted), s.Error), "check its url and your access, then lore sync"}
	case s.Commit == "":
		return Finding{"sources", Action, fmt.Sprintf("%s was never fetched: its items reach no agent", s.Name), "lore sync"}
	case s.Error != "":
		level := Info
		if now.Sub(s.Fetched) > staleAfter {
			level = Action
		}
		return Finding{"sources", level, fmt.Sprintf("%s cannot be fetched since %s (%s); agents get the copy of that date (%.12s)", s.Name, day(s.Fetched), s.Error, s.Commit), "check its url and your access, then lore sync"}
	}
	return Finding{"sources", OK, fmt.Sprintf("%s at %.12s, fetched %s", s.Name, s.Commit, day(s.Fetched)), ""}
}
