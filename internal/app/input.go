package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/store/sources"
)

// loadSkills parses the skill documents of .lore/skills (lore aggregate).
// A document that cannot be parsed is returned as an error and skipped.
func loadSkills(s *gitstore.Store) ([]compile.Skill, []error) {
	entries, err := os.ReadDir(s.Path(lorepath.Skills))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var skills []compile.Skill
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		rel := lorepath.Skills + "/" + e.Name()
		data, err := s.ReadFile(rel)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sk, err := compile.ParseSkill(rel, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		skills = append(skills, sk)
	}
	sort.Slice(skills, func(a, b int) bool { return skills[a].Path < skills[b].Path })
	return skills, errs
}

// Scopes is what a repository reads besides its own .lore/: its config
// with the user's sources and disabled ids merged in, and the stores of
// every other scope (docs/design.md, Scopes and organisation stores): the
// sources the project or user config names, each at its last fetch (the
// build never fetches), then the user's own store.
type Scopes struct {
	Config config.Config
	Stores []compile.Store
	// UserErr and ConfigErr name the problems of the user's and the
	// project's config (each with its file, line and key): Config holds
	// every other key, and the commands that compile go on with it and
	// report them (lint fails on the project's), so one bad key does not
	// leave the repository without its deny guards. A user's config that
	// could not be read is left out whole.
	UserErr, ConfigErr error
}

// LoadScopes reads the project's and the user's config and resolves the
// stores they name. A source never fetched is a store with no folder. A
// problem in either config leaves out only its key (Scopes.UserErr,
// Scopes.ConfigErr); a project config that cannot be read is an error.
func LoadScopes(s *gitstore.Store) (Scopes, error) {
	cfg, cfgErr := s.Config()
	if !config.Usable(cfgErr) {
		return Scopes{Config: cfg}, cfgErr
	}
	var user, userConfig string
	var userStat manifest.Stat
	var uc config.User
	var userErr error
	if user = compile.UserDir(); user != "" {
		userConfig = filepath.Join(user, "config.yaml")
		userStat = manifest.StatPath(userConfig) // before the read (compile.Store.Stat)
		if uc, userErr = readUserConfig(userConfig); !config.Usable(userErr) {
			uc = config.User{}
		}
	}
	cfg.Sources, cfg.Disable = config.Merge(cfg, uc)
	sc := Scopes{Config: cfg, UserErr: userErr, ConfigErr: cfgErr}
	if root := sources.Root(); root != "" {
		for _, src := range cfg.Sources {
			dir := sources.Dir(root, src)
			head := filepath.Join(dir, lorepath.SourceHead)
			stat := manifest.StatPath(head) // before the read (compile.Store.Stat)
			commit, store := sources.InUse(dir, src)
			st := compile.Store{Scope: compile.Org, Name: src.Name, Dir: store, State: head, Stat: stat, Commit: commit}
			if store == "" {
				st.Lost = sources.StoreDir(dir, src, sources.Head(dir))
			}
			sc.Stores = append(sc.Stores, st)
		}
	}
	if user != "" {
		sc.Stores = append(sc.Stores, compile.Store{Scope: compile.User, Name: config.UserName, Dir: user,
			State: userConfig, Stat: userStat})
	}
	return sc, nil
}

// unfetched names the organisation sources of stores with no copy here.
func unfetched(stores []compile.Store) []string {
	var out []string
	for _, st := range stores {
		if st.Scope == compile.Org && st.Dir == "" {
			out = append(out, st.Name)
		}
	}
	return out
}

// readUserConfig reads the user's config ($XDG_CONFIG_HOME/lore/config.yaml
// at path); none is empty.
func readUserConfig(path string) (config.User, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.User{}, nil
	}
	if err != nil {
		return config.User{}, err
	}
	return config.ParseUser(path, data)
}

// CompileInput loads what a build compiles: the config, the project's items
// and skill documents, and the items of the other scopes' stores. Files
// that cannot be read or parsed come back as errs and are skipped.
func CompileInput(s *gitstore.Store, sc Scopes) (in compile.Input, errs []error) {
	in, errs = baseInput(s, sc)
	items, lerrs := s.Load()
	in.Items, errs = items, append(lerrs, errs...)
	for i, st := range in.Stores {
		if st.Dir != "" {
			var serrs []error
			in.Stores[i].Items, serrs = compile.LoadDir(st.Dir, st.Name)
			errs = append(errs, serrs...)
		}
	}
	return in, errs
}

// buildInput is CompileInput for a build: the item files the snapshot
// listed go through the cache, which reads only those it does not have
// unchanged (Match).
func buildInput(s *gitstore.Store, sc Scopes, snap compile.Snapshot, cache *compile.Cache) (compile.Input, []error) {
	in, errs := baseInput(s, sc)
	files, lerrs := snap.ProjectFiles()
	errs = append(errs, lerrs...)
	errs = append(cache.Read(files, compile.Store{Scope: compile.Project}), errs...)
	for _, st := range in.Stores {
		if st.Dir == "" || st.Part != nil {
			continue
		}
		files, lerrs := compile.ListDir(st.Dir, st.Name)
		errs = append(errs, lerrs...)
		errs = append(errs, cache.Read(files, st)...)
	}
	in.Cache = cache
	return in, errs
}

// baseInput is what every input has besides the item files: the config,
// the learnings file, the skill documents and the other scopes' stores.
func baseInput(s *gitstore.Store, sc Scopes) (in compile.Input, errs []error) {
	in.Config = sc.Config
	in.Learnings, _ = os.ReadFile(s.Path(in.Config.Learnings)) // none or unreadable: no recent learnings at SessionStart
	in.Skills, errs = loadSkills(s)
	for _, err := range []error{sc.ConfigErr, sc.UserErr} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	in.Stores = slices.Clone(sc.Stores)
	return in, errs
}

// projectInput is CompileInput of the project's own store alone, for the
// commands that only look at it (status, aggregate).
func projectInput(s *gitstore.Store) (compile.Input, []error, error) {
	cfg, err := s.Config()
	if !config.Usable(err) {
		return compile.Input{}, nil, err
	}
	in, errs := CompileInput(s, Scopes{Config: cfg, ConfigErr: err})
	return in, errs, nil
}

// allItems loads the items of every scope, the project's first, for the
// commands that show them (list, show, match, search), and the input they
// come from (compile.Deliveries).
func allItems(s *gitstore.Store) (compile.Input, []*markdown.Item, []error, error) {
	sc, err := LoadScopes(s)
	if err != nil {
		return compile.Input{}, nil, nil, err
	}
	in, errs := CompileInput(s, sc)
	return in, in.AllItems(), errs, nil
}
