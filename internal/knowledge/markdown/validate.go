package markdown

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/lore-agents/lore/internal/lazyre"
	"github.com/oklog/ulid/v2"
)

// MaxTitle is the longest title allowed, in characters.
const MaxTitle = 100

var (
	statuses = map[string][]string{
		KindLesson:   {"draft", "active", "deprecated", "archived"},
		KindPitfall:  {"draft", "active", "deprecated", "archived"},
		KindDecision: {"proposed", "accepted", "superseded", "deprecated"},
	}
	forms     = []string{"checklist", "pattern", "warning", "requirement"}
	scopes    = []string{"project", "global"}
	refRe     = map[string]func() *regexp.Regexp{KindPitfall: lazyre.New(`^PF-\d{4,}$`), KindDecision: lazyre.New(`^ADR-\d{4,}$`)}
	refPrefix = map[string]string{KindPitfall: "PF", KindDecision: "ADR"}
)

// Statuses lists the statuses valid for a kind.
func Statuses(kind string) []string { return statuses[kind] }

// RefPrefix is the human-number prefix of a kind ("PF", "ADR"), or "".
func RefPrefix(kind string) string { return refPrefix[kind] }

// Injectable reports whether an item's status makes it injectable: active
// lessons and pitfalls, accepted decisions, and drafts when drafts is set.
func (it *Item) Injectable(drafts bool) bool { return InjectableStatus(it.Status, drafts) }

// InjectableStatus is Injectable of an item with the status.
func InjectableStatus(status string, drafts bool) bool {
	switch status {
	case "active", "accepted":
		return true
	case "draft", "proposed":
		return drafts
	}
	return false
}

// Validate checks one item against the format of docs/design.md, Item format,
// and returns every problem, each naming the file, line and key.
func Validate(it *Item) []*Error {
	v := &validation{it: it, errs: append([]*Error(nil), it.Problems...)}
	for _, check := range checks {
		check(v)
	}
	return v.errs
}

// validation collects the problems of one item, one check per rule.
type validation struct {
	it   *Item
	errs []*Error
}

func (v *validation) add(key, format string, args ...any) {
	v.errs = append(v.errs, errorf(v.it.Path, v.it.KeyLine(key), key, format, args...))
}

var checks = []func(*validation){
	(*validation).required, (*validation).id, (*validation).kind, (*validation).title, (*validation).status,
	(*validation).confidence, (*validation).form, (*validation).scope, (*validation).ref, (*validation).enforce,
	(*validation).updated, (*validation).regexes, (*validation).globs, (*validation).sourceFiles,
}

func (v *validation) required() {
	for _, k := range []string{"id", "kind", "title", "status"} {
		if !v.it.Has(k) {
			v.add(k, "required key is missing")
		}
	}
}

func (v *validation) id() {
	if v.it.ID == "" {
		return
	}
	if _, err := ulid.ParseStrict(v.it.ID); err != nil {
		v.add("id", "%q is not a ULID (26 characters of Crockford base32)", v.it.ID)
	}
}

// kind: a known kind, in its own folder when it is in a kind's folder.
func (v *validation) kind() {
	it := v.it
	if !it.Has("kind") {
		return
	}
	if Folder(it.Kind) == "" {
		v.add("kind", "unknown kind %q: want lesson, pitfall or decision", it.Kind)
	} else if dir := filepath.Base(filepath.Dir(it.Path)); isKindFolder(dir) && dir != Folder(it.Kind) {
		v.add("kind", "kind %q does not agree with its folder %s/ (want %s/)", it.Kind, dir, Folder(it.Kind))
	}
}

func (v *validation) title() {
	it := v.it
	if !it.Has("title") {
		return
	}
	switch {
	case it.Title == "":
		v.add("title", "must not be empty")
	case strings.ContainsAny(it.Title, "\n\r"):
		v.add("title", "must be one line")
	case len([]rune(it.Title)) > MaxTitle:
		v.add("title", "is %d characters; at most %d", len([]rune(it.Title)), MaxTitle)
	}
}

func (v *validation) status() {
	it := v.it
	if valid := statuses[it.Kind]; valid != nil && it.Has("status") && !contains(valid, it.Status) {
		v.add("status", "%q is not a %s status: want %s", it.Status, it.Kind, strings.Join(valid, ", "))
	}
}

func (v *validation) confidence() {
	if c := v.it.Confidence; c < 0 || c > 1 {
		v.add("confidence", "%v is out of range 0..1", c)
	}
}

func (v *validation) form() {
	if f := v.it.Form; f != "" && !contains(forms, f) {
		v.add("form", "%q: want %s", f, strings.Join(forms, ", "))
	}
}

func (v *validation) scope() {
	if s := v.it.Scope; s != "" && !contains(scopes, s) {
		v.add("scope", "%q: want project or global", s)
	}
}

// ref: pitfalls and decisions may have one, in their kind's shape.
func (v *validation) ref() {
	it := v.it
	if it.Ref == "" {
		return
	}
	if re := refRe[it.Kind]; re != nil && !re().MatchString(it.Ref) {
		v.add("ref", "%q: want %s-NNNN", it.Ref, refPrefix[it.Kind])
	} else if re == nil && Folder(it.Kind) != "" {
		v.add("ref", "only pitfalls and decisions have a ref")
	}
}

// enforce: deny (critical items only: it blocks every matching call), once
// (any priority: it holds the first matching call of a context with the
// lesson as the reason, then lets it through) or none. Both block calls
// that match a target, so they need one: see docs/design.md, Prevention
// before the call.
func (v *validation) enforce() {
	it := v.it
	switch it.Enforce {
	case "", EnforceNone:
	case EnforceDeny:
		if it.Priority.Band() != "critical" {
			v.add("enforce", "deny is for critical items only (priority is %s); enforce: once holds the first matching call at any priority", it.Priority.Band())
		}
	case EnforceOnce:
		if t := it.Triggers; len(t.Commands)+len(t.Paths)+len(t.Content) == 0 {
			v.add("enforce", "once holds the first call that matches a target: set triggers.commands, triggers.paths or triggers.content")
		}
	default:
		v.add("enforce", "%q: want once, deny or none", it.Enforce)
	}
}

func (v *validation) updated() {
	if v.it.Updated.Before(v.it.Created) && !v.it.Updated.IsZero() {
		v.add("updated", "is before created")
	}
}

// regexes: every trigger pattern compiles as RE2.
func (v *validation) regexes() {
	t := v.it.Triggers
	for _, kl := range []struct {
		key  string
		list []string
	}{{"commands", t.Commands}, {"unless", t.Unless}, {"content", t.Content}} {
		for _, pat := range kl.list {
			if err := CheckRegex(pat); err != nil {
				v.add("triggers."+kl.key, "%s", regexAdvice(kl.key, err))
			}
		}
	}
}

// regexAdvice is the message for a pattern of the trigger key that does
// not compile.
func regexAdvice(key string, err error) string {
	msg := err.Error()
	if key == "content" { // unless is tried on the path, not on the added text
		msg = strings.Replace(msg, "move what it excludes to triggers.unless", "match the code it looks for instead (e.g. a line start and no await)", 1)
	}
	return msg
}

func (v *validation) globs() {
	for _, g := range v.it.Triggers.Paths {
		if !doublestar.ValidatePattern(g) {
			v.add("triggers.paths", "invalid glob %q", g)
		}
	}
}

// sourceFiles: the files an item cites are named from the repository's
// root, so lint can look for them in HEAD.
func (v *validation) sourceFiles() {
	if v.it.Source == nil {
		return
	}
	for _, f := range v.it.Source.Files {
		if !repoRelative(f) {
			v.add("source.files", "%q is not a repository-relative path (no leading /, ~ or ..)", f)
		}
	}
}

func isKindFolder(dir string) bool {
	return dir == "lessons" || dir == "pitfalls" || dir == "decisions"
}

// pcre lists PCRE-only constructs RE2 rejects, with a readable name.
var pcre = []struct{ token, name string }{
	{"(?<=", "lookbehind"}, {"(?<!", "negative lookbehind"},
	{"(?=", "lookahead"}, {"(?!", "negative lookahead"},
}

var backrefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\[1-9]`) })

// CheckRegex compiles an RE2 pattern. For PCRE-only syntax it names the
// construct and its byte position and points at the unless rewrite.
func CheckRegex(pat string) error {
	if v, ok := checked.Load(pat); ok {
		err, _ := v.(error) // nil when it compiles
		return err
	}
	err := checkRegex(pat)
	checked.Store(pat, err)
	return err
}

// checked memoizes checkRegex by pattern for the life of the process (a
// store repeats patterns; a build checked each every time).
var checked sync.Map // pattern -> error (nil: compiles)

func checkRegex(pat string) error {
	_, err := regexp.Compile(pat)
	if err == nil {
		return nil
	}
	for _, p := range pcre {
		if i := strings.Index(pat, p.token); i >= 0 {
			return fmt.Errorf("%q uses %s at position %d, which RE2 does not support: move what it excludes to triggers.unless", pat, p.name, i)
		}
	}
	if loc := backrefRe().FindStringIndex(pat); loc != nil {
		return fmt.Errorf("%q uses a backreference at position %d, which RE2 does not support: match the text literally or split the trigger", pat, loc[0])
	}
	return fmt.Errorf("%q is not a valid RE2 regex: %v", pat, err)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
