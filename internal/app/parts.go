package app

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/sources"
)

// readParts gives each fetched organisation source of sc its part
// (docs/design.md, Incremental build): the one a build of this binary and
// these settings saved for the source's commit, else (or when fresh) one
// compiled now from the checkout's files and saved for every repository
// that names the source. It returns the files of the sources that could
// not be read or parsed. A source whose part cannot be saved is compiled
// into the project's manifest, as before parts.
func readParts(sc Scopes, salt string, fresh bool) []error {
	if salt == "" {
		return nil // nothing could tell this binary's parts from another's
	}
	set := compile.Settings(sc.Config)
	var skipped []error
	for i, st := range sc.Stores {
		if st.Scope != compile.Org || st.Dir == "" {
			continue
		}
		path := sources.PartPath(filepath.Dir(st.State), st.Commit, compile.PartKey(salt, set, st.Dir))
		p := savedPart(path)
		if p == nil || fresh {
			if p = compilePart(path, st, set); p == nil {
				continue // not saved: the source is compiled into the project's manifest
			}
		}
		sc.Stores[i].Part = p
		for _, msg := range p.Skipped {
			skipped = append(skipped, errors.New(msg))
		}
	}
	return skipped
}

// savedPart is the part saved at path, nil when there is none or its
// manifest is not the one its summary names.
func savedPart(path string) *compile.Part {
	data, err := os.ReadFile(sources.SummaryPath(path))
	if err != nil {
		return nil
	}
	p, want, err := compile.DecodePart(data, path)
	if err != nil || manifest.StatPath(path) != want {
		return nil
	}
	return p
}

// compilePart compiles a source's checkout into its part and saves it;
// nil when it could not be saved.
func compilePart(path string, st compile.Store, set manifest.Settings) *compile.Part {
	files, errs := compile.ListDir(st.Dir, st.Name)
	known, skipped := compile.ReadPart(files, st, compile.ItemCap(set))
	for _, err := range errs {
		skipped = append(skipped, err.Error())
	}
	p, src := compile.NewPart(path, known, skipped, set)
	data, err := manifest.Build(src)
	if err != nil || sources.WritePart(path, data) != nil ||
		sources.WriteSummary(path, compile.EncodePart(p, manifest.StatPath(path))) != nil {
		return nil
	}
	return p
}
