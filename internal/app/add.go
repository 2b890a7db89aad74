package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// KindLearning is what AddOptions.Spec.Kind names to append a learnings
// entry instead of creating an item.
const KindLearning = "learning"

// AddOptions is a new item, or a learnings entry (Spec.Kind KindLearning).
type AddOptions struct {
	// Spec is the item's frontmatter and triggers as given: its Body is
	// set here, and an empty Status becomes the kind's default.
	Spec markdown.Spec
	// Body is the Markdown body as given (read from BodyFrom when that is
	// set: the command's standard input); when blank, the kind's sections
	// are rendered from Sections (by heading: Mistake, Fix, Why, Issue,
	// Impact, Avoid, Context, Decision, Consequences) and Checklist.
	Body      string
	BodyFrom  io.Reader
	Sections  map[string]string
	Checklist []string
	As        string // a learning's kind on consolidation
	Edit      Editor // nil: no editor
	// ExampleFire and ExampleQuiet are the item's examples as given
	// (`Tool: input`), checked against its triggers before it is written.
	ExampleFire, ExampleQuiet []string
}

// Added is what Add created.
type Added struct {
	Path  string         // the new item's file, or the learnings file
	Item  *markdown.Item // the new item; nil for a learning
	Title string         // the learning's entry title
	// Warnings are what lint says about the new item's triggers (it can
	// never fire, or fires on almost every call): said now, not at review.
	Warnings []lint.Finding
	// Delivery is how the new item reaches an agent.
	Delivery compile.Delivery
}

// sections are the H2 sections of a new item of each kind, in order.
var sections = map[string][]string{
	markdown.KindLesson:   {"Mistake", "Fix", "Checklist", "Why"},
	markdown.KindPitfall:  {"Issue", "Impact", "Avoid"},
	markdown.KindDecision: {"Context", "Decision", "Consequences"},
}

// Add creates one knowledge item, validated fully before anything is
// written, or appends a learnings entry.
func Add(s *gitstore.Store, o AddOptions) (Added, error) {
	var err error
	if o.BodyFrom != nil {
		b, err := io.ReadAll(o.BodyFrom)
		if err != nil {
			return Added{}, fmt.Errorf("read stdin: %w", err)
		}
		o.Body = string(b)
	}
	if o.Spec.Kind == KindLearning {
		return addLearning(s, o)
	}
	if o.Spec.Title == "" && o.Edit == nil {
		return Added{}, usagef("a title is required: lore add %s \"Title\" ...", o.Spec.Kind)
	}
	if o.Spec.Examples, err = markdown.ParseExamples(o.ExampleFire, o.ExampleQuiet); err != nil {
		return Added{}, &InputError{err}
	}
	target, err := addTarget(s, &o.Spec)
	if err != nil {
		return Added{}, err
	}
	data, want, err := draft(target, o)
	if err != nil {
		return Added{}, err
	}
	if err := examplesAgree(s, o.Spec, data); err != nil {
		return Added{}, err
	}
	// What no build would compile is refused before anything is written:
	// validation errors (Create checks them too) and lint's safety findings.
	named := func(rel string) string { return rel }
	if target != s { // named as lore list names it
		named = func(rel string) string { return config.UserName + ":" + strings.TrimPrefix(rel, lorepath.Dir+"/") }
	}
	if it, err := markdown.Parse(named(lorepath.InDir(markdown.Folder(o.Spec.Kind))+"/"+markdown.FileName("", o.Spec.Title)), data); err == nil {
		if err := compile.Rejected(it); err != nil {
			return Added{}, &InputError{err}
		}
	}
	rel, it, err := target.Create(o.Spec.Kind, want, func(ref string) ([]byte, error) { // under the store lock
		return markdown.WithRef(data, ref)
	})
	var me *markdown.Error
	if errors.As(err, &me) {
		me.Path = named(me.Path)
	}
	if err != nil {
		return Added{}, err
	}
	rel = named(rel)
	it.Path = rel
	r := Added{Path: rel, Item: it}
	if cfg, err := s.Config(); err == nil {
		r.Warnings = lint.Triggers(it, cfg.Inject.Threshold)
		r.Delivery = compile.DeliveryOf(it, compile.Settings(cfg))
	}
	return r, nil
}

// addTarget is the store a new item goes to: the project's, or with
// --scope user (global: its older name) the user's own store
// (docs/design.md, Scopes and organisation stores), where the folder
// names the scope and the frontmatter needs no scope key.
func addTarget(s *gitstore.Store, spec *markdown.Spec) (*gitstore.Store, error) {
	switch spec.Scope {
	case "", "project":
		return s, nil
	case config.UserName, "global":
		dir := compile.UserDir()
		if dir == "" {
			return nil, usagef("--scope user: no config folder (set XDG_CONFIG_HOME or HOME)")
		}
		spec.Scope = ""
		cache := ""
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "lore", "user")
		}
		return gitstore.OpenFolder(dir, cache), nil
	}
	return nil, usagef("--scope %q: want project or user", spec.Scope)
}

// examplesAgree refuses a new item whose examples its triggers disagree
// with (review.CheckExamples), before anything is written. The item is
// named by the file it would get.
func examplesAgree(s *gitstore.Store, spec markdown.Spec, data []byte) error {
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	it, err := markdown.Parse(path.Join(lorepath.InDir(markdown.Folder(spec.Kind)), markdown.FileName("", spec.Title)), data)
	if err != nil {
		return err
	}
	if err := review.CheckExamples(it, compile.Settings(cfg)); err != nil {
		return &InputError{err}
	}
	return nil
}

// draft is the new item's file, edited when o.Edit is set, and the ref
// the user chose in the editor ("" for the next free one). The editor runs
// before the lock is taken (the lock is held for writes, not for as long
// as an editor stays open); the number is decided under the lock, and
// replaces the one the editor showed unless the user chose another that
// is still free.
func draft(s *gitstore.Store, o AddOptions) (data []byte, want string, err error) {
	shown, err := s.NextRef(o.Spec.Kind)
	if err != nil {
		return nil, "", err
	}
	data, err = o.spec().Compose(ulid.Make().String(), shown, time.Now())
	if err != nil || o.Edit == nil {
		return data, "", err
	}
	if data, err = o.Edit(data); err != nil {
		return nil, "", err
	}
	if it, err := markdown.Parse("", data); err == nil && it.Ref != shown {
		want = it.Ref
	}
	return data, want, nil
}

// spec is the item with its body and default status.
func (o AddOptions) spec() markdown.Spec {
	spec := o.Spec
	if spec.Status == "" {
		spec.Status = "active"
		if spec.Kind == markdown.KindDecision {
			spec.Status = "accepted"
		}
	}
	spec.Body = o.body()
	return spec
}

// body renders the kind's sections, or the given body.
func (o AddOptions) body() string {
	if strings.TrimSpace(o.Body) != "" {
		return o.Body
	}
	var list []string
	for _, x := range o.Checklist {
		list = append(list, "- "+x)
	}
	var secs [][2]string
	for _, h := range sections[o.Spec.Kind] {
		text := o.Sections[h]
		if h == "Checklist" {
			text = strings.Join(list, "\n")
		}
		secs = append(secs, [2]string{h, text})
	}
	return markdown.SectionsBody(secs, o.Edit != nil)
}

// addLearning appends an H2 entry to the learnings file under the lock.
func addLearning(s *gitstore.Store, o AddOptions) (Added, error) {
	title := strings.TrimSpace(o.Spec.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") {
		return Added{}, usagef("a one-line title is required: lore add learning \"Title\" --body \"...\"")
	}
	cfg, err := s.Config()
	if err != nil {
		return Added{}, err
	}
	body := strings.TrimSpace(o.Body)
	if o.As != "" {
		body = strings.TrimSpace("kind: " + o.As + "\n" + body)
	}
	return Added{Path: cfg.Learnings, Title: title}, appendLearning(s, cfg.Learnings, title, body)
}

// appendLearning reads the learnings file and appends the entry in one
// hold of the store lock; a title already there is an error.
func appendLearning(s *gitstore.Store, rel, title, body string) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(s.Path(rel))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	l, err := markdown.ParseLearnings(rel, data)
	if err != nil {
		return err
	}
	for _, e := range l.Entries {
		if e.Title == title {
			return fmt.Errorf("%s:%d: an entry titled %q already exists", rel, e.Line, title)
		}
	}
	// The store lock is held: the read and the write are one step.
	if err := s.WriteLocked(rel, markdown.AppendEntry(data, title, body)); err != nil {
		return err
	}
	// A store set up before lore init wrote the merge line gets it with its
	// first new entry (docs/design.md, What a reviewer cannot see).
	return s.EnsureUnion(rel)
}
