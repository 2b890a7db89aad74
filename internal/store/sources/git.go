package sources

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/lore-agents/lore/internal/knowledge/config"
)

// remoteHead lists the remote (git ls-remote) and returns the commit its
// ref names and the ref's full name: the branch, else the tag (peeled),
// else, with no ref, the branch HEAD points to.
func remoteHead(ctx context.Context, s config.Source) (commit string, ref plumbing.ReferenceName, err error) {
	u, secrets, err := config.ExpandURL(s.URL, os.Getenv)
	if err != nil {
		return "", "", fmt.Errorf("sources: %s: %w", s.Name, err)
	}
	r := git.NewRemote(memory.NewStorage(), &gitconfig.RemoteConfig{Name: "origin", URLs: []string{u}})
	refs, err := r.ListContext(ctx, &git.ListOptions{PeelingOption: git.AppendPeeled})
	if err != nil {
		return "", "", fmt.Errorf("sources: %s: list %s: %w", s.Name, s.URL, redacted(err, secrets))
	}
	byName := map[plumbing.ReferenceName]*plumbing.Reference{}
	for _, r := range refs {
		byName[r.Name()] = r
	}
	want := []plumbing.ReferenceName{plumbing.NewBranchReferenceName(s.Ref), plumbing.NewTagReferenceName(s.Ref)}
	if s.Ref == "" {
		head, ok := byName[plumbing.HEAD]
		if !ok || head.Type() != plumbing.SymbolicReference {
			return "", "", fmt.Errorf("sources: %s: %s names no default branch: set ref", s.Name, s.URL)
		}
		want = []plumbing.ReferenceName{head.Target()}
	}
	for _, name := range want {
		if peeled, ok := byName[name+"^{}"]; ok {
			return peeled.Hash().String(), name, nil
		}
		if r, ok := byName[name]; ok && r.Type() == plumbing.HashReference {
			return r.Hash().String(), name, nil
		}
	}
	return "", "", fmt.Errorf("sources: %s: %s has no branch or tag %q", s.Name, s.URL, s.Ref)
}

// clone checks ref out shallowly (one commit, no tags) into dir/work and
// returns the commit it checked out.
func clone(ctx context.Context, dir string, s config.Source, ref plumbing.ReferenceName) (string, error) {
	u, secrets, err := config.ExpandURL(s.URL, os.Getenv)
	if err != nil {
		return "", fmt.Errorf("sources: %s: %w", s.Name, err)
	}
	repo, err := git.PlainCloneContext(ctx, filepath.Join(dir, "work"), false, &git.CloneOptions{
		URL: u, ReferenceName: ref, SingleBranch: true, Depth: 1, Tags: git.NoTags,
	})
	if err != nil {
		return "", fmt.Errorf("sources: %s: clone %s %s: %w", s.Name, s.URL, ref.Short(), redacted(err, secrets))
	}
	head, err := repo.Head()
	if err != nil {
		return "", fmt.Errorf("sources: %s: %w", s.Name, err)
	}
	return head.Hash().String(), nil
}

// redacted is err with every secret of the expanded URL masked: an error
// is printed and kept in the fetch state.
func redacted(err error, secrets []string) error {
	msg := err.Error()
	for _, s := range secrets {
		msg = strings.ReplaceAll(msg, s, "***")
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// Remote is a source's remote ref against its fetched copy, for lore sync
// --check.
type Remote struct {
	Commit string // what the remote's ref names now
	Err    error  // the remote could not be listed
}

// ListRemote lists a source's remote ref without fetching anything.
func ListRemote(ctx context.Context, s config.Source) Remote {
	commit, _, err := remoteHead(ctx, s)
	return Remote{Commit: commit, Err: err}
}
