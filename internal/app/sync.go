package app

import (
	"context"
	"errors"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/store/sources"
)

// SyncOptions say how lore sync runs (docs/design.md, Scopes and
// organisation stores).
type SyncOptions struct {
	// Check lists each source's remote and compares it with the copy on
	// this machine: nothing is fetched and nothing is built.
	Check bool
	// Background is the hook's daily sync: a source another lore process
	// is fetching is left to it instead of waited for.
	Background bool
}

// SyncedSource is one source after lore sync.
type SyncedSource struct {
	Name    string    `json:"name"`
	URL     string    `json:"url"`
	Ref     string    `json:"ref,omitempty"`
	Origin  string    `json:"origin"`            // the config file that names it
	Dir     string    `json:"dir"`               // its folder in lore's cache
	Commit  string    `json:"commit,omitempty"`  // the copy in use ("" never fetched)
	Fetched time.Time `json:"fetched,omitzero"`  // the last successful fetch
	Changed bool      `json:"changed,omitempty"` // this sync moved the copy
	Busy    bool      `json:"busy,omitempty"`    // another lore process was fetching it
	Remote  string    `json:"remote,omitempty"`  // --check: the commit the remote's ref names
	Behind  bool      `json:"behind,omitempty"`  // --check: the copy here is not the remote's ref
	Error   string    `json:"error,omitempty"`   // the fetch (or --check's listing) failed
}

// SyncReport is lore sync --json.
type SyncReport struct {
	Sources []SyncedSource `json:"sources"`
	// Problems are the configs' problems with sources: each leaves a
	// source out, so the sources listed are not all the configs meant.
	Problems []string `json:"problems,omitempty"`
	Built    *Built   `json:"-"` // the build after the fetches (nil with Check)
}

// Failed says whether lore sync exits 1: a source could not be fetched
// (or, with Check, listed), a config's sources have a problem, or with
// Check a copy is behind its remote.
func (r SyncReport) Failed() bool {
	if len(r.Problems) > 0 {
		return true
	}
	for _, s := range r.Sources {
		if s.Error != "" || s.Behind {
			return true
		}
	}
	return false
}

// fetchTimeout bounds one source's fetch: a remote that hangs (an ssh
// host that never answers) must not keep a background sync alive.
const fetchTimeout = 5 * time.Minute

// ErrNoCache says lore has no cache folder to fetch sources into.
var ErrNoCache = errors.New("no cache folder for sources: set XDG_CACHE_HOME or HOME")

// Sync fetches every source the project's and the user's config name into
// lore's cache (one copy per source, shared by every repository naming
// it) and rebuilds the manifest; a source that cannot be fetched keeps its
// last copy and reports its error. With Check it fetches nothing.
func Sync(ctx context.Context, s *gitstore.Store, o SyncOptions) (SyncReport, error) {
	r := SyncReport{Sources: []SyncedSource{}}
	sc, err := LoadScopes(s)
	if err != nil {
		return r, err
	}
	for _, err := range []error{sc.ConfigErr, sc.UserErr} {
		for _, ce := range config.Problems(err) {
			if ce.AboutSources() {
				r.Problems = append(r.Problems, ce.WithEffect())
			}
		}
	}
	root := sources.Root()
	if root == "" && len(sc.Config.Sources) > 0 {
		return r, ErrNoCache
	}
	for _, src := range sc.Config.Sources {
		one := SyncedSource{Name: src.Name, URL: src.URL, Ref: src.Ref, Origin: src.File, Dir: sources.Dir(root, src)}
		if o.Check {
			one.check(ctx, src)
		} else {
			one.fetch(ctx, root, src, !o.Background)
		}
		r.Sources = append(r.Sources, one)
	}
	if o.Check {
		return r, nil
	}
	b, err := Build(s, BuildOptions{})
	r.Built = &b
	return r, err
}

// fetch fetches one source and records the outcome.
func (one *SyncedSource) fetch(ctx context.Context, root string, src config.Source, wait bool) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	f, err := sources.Fetch(ctx, root, src, wait)
	one.Commit, one.Fetched, one.Changed, one.Busy = f.State.Commit, f.State.Fetched, f.Changed, f.Busy
	if err != nil {
		one.Error = sources.Reason(one.Name, err)
	}
}

// check lists one source's remote and compares it with the copy here. A
// source never fetched on this machine (a CI runner's empty cache) is not
// behind: the check is that the remote and its ref can be reached.
func (one *SyncedSource) check(ctx context.Context, src config.Source) {
	st, err := sources.ReadState(one.Dir)
	if err != nil {
		one.Error = sources.Reason(one.Name, err)
		return
	}
	one.Commit, one.Fetched = st.Commit, st.Fetched
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	rem := sources.ListRemote(ctx, src)
	if rem.Err != nil {
		one.Error = sources.Reason(one.Name, rem.Err)
		return
	}
	one.Remote = rem.Commit
	one.Behind = st.Commit != "" && st.Commit != rem.Commit
}
