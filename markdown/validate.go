package markdown

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
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
	refRe     = map[string]*regexp.Regexp{KindPitfall: regexp.MustCompile(`^PF-\d{4,}$`), KindDecision: regexp.MustCompile(`^ADR-\d{4,}$`)}
	refPrefix = map[string]string{KindPitfall: "PF", KindDecision: "ADR"}
)

// Statuses lists the statuses valid for a kind.
func Statuses(kind string) []string { return statuses[kind] }

// RefPrefix is the human-number prefix of a kind ("PF", "ADR"), or "".
func RefPrefix(kind string) string { return refPrefix[kind] }

// Injectable reports whether an item's status makes it injectable: active
// lessons and pitfalls, accepted decisions, and drafts when drafts is set.
func (it *Item) Injectable(drafts bool) bool {
	switch it.Status {
	case "active", "accepted":
		return true
	case "draft", "proposed":
		return drafts
	}
	return false
}

// Validate checks one item against the format of DESIGN section 3 and
// returns every problem, each naming the file, line and key.
func Validate(it *Item) []*Error {
	errs := append([]*Error(nil), it.Problems...)
	add := func(key, format string, args ...any) {
		errs = append(errs, errorf(it.Path, it.KeyLine(key), key, format, args...))
	}
	for _, k := range []string{"id", "kind", "title", "status"} {
		if !it.Has(k) {
			add(k, "required key is missing")
		}
	}
	if it.ID != "" {
		if _, err := ulid.ParseStrict(it.ID); err != nil {
			add("id", "%q is not a ULID (26 characters of Crockford base32)", it.ID)
		}
	}
	if it.Has("kind") {
		if Folder(it.Kind) == "" {
			add("kind", "unknown kind %q: want lesson, pitfall or decision", it.Kind)
		} else if dir := filepath.Base(filepath.Dir(it.Path)); isKindFolder(dir) && dir != Folder(it.Kind) {
			add("kind", "kind %q does not agree with its folder %s/ (want %s/)", it.Kind, dir, Folder(it.Kind))
		}
	}
	if it.Has("title") {
		switch {
		case it.Title == "":
			add("title", "must not be empty")
		case strings.ContainsAny(it.Title, "\n\r"):
			add("title", "must be one line")
		case len([]rune(it.Title)) > MaxTitle:
			add("title", "is %d characters; at most %d", len([]rune(it.Title)), MaxTitle)
		}
	}
	if valid := statuses[it.Kind]; valid != nil && it.Has("status") && !contains(valid, it.Status) {
		add("status", "%q is not a %s status: want %s", it.Status, it.Kind, strings.Join(valid, ", "))
	}
	if it.Confidence < 0 || it.Confidence > 1 {
		add("confidence", "%v is out of range 0..1", it.Confidence)
	}
	if it.Form != "" && !contains(forms, it.Form) {
		add("form", "%q: want %s", it.Form, strings.Join(forms, ", "))
	}
	if it.Scope != "" && !contains(scopes, it.Scope) {
		add("scope", "%q: want project or global", it.Scope)
	}
	if re := refRe[it.Kind]; re != nil && it.Ref != "" && !re.MatchString(it.Ref) {
		add("ref", "%q: want %s-NNNN", it.Ref, refPrefix[it.Kind])
	} else if it.Ref != "" && re == nil && Folder(it.Kind) != "" {
		add("ref", "only pitfalls and decisions have a ref")
	}
	if it.Enforce != "" {
		if it.Enforce != "deny" {
			add("enforce", "%q: the only enforcement is deny", it.Enforce)
		} else if it.Priority.Band() != "critical" {
			add("enforce", "deny is for critical items only (priority is %s)", it.Priority.Band())
		}
	}
	if it.Updated.Before(it.Created) && !it.Updated.IsZero() {
		add("updated", "is before created")
	}
	for _, kl := range []struct {
		key  string
		list []string
	}{{"commands", it.Triggers.Commands}, {"unless", it.Triggers.Unless}, {"content", it.Triggers.Content}} {
		for _, pat := range kl.list {
			err := CheckRegex(pat)
			if err == nil {
				continue
			}
			msg := err.Error()
			if kl.key == "content" { // unless is tried on the path, not on the added text
				msg = strings.Replace(msg, "move what it excludes to triggers.unless", "match the code it looks for instead (e.g. a line start and no await)", 1)
			}
			add("triggers."+kl.key, "%s", msg)
		}
	}
	for _, g := range it.Triggers.Paths {
		if !doublestar.ValidatePattern(g) {
			add("triggers.paths", "invalid glob %q", g)
		}
	}
	return errs
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
