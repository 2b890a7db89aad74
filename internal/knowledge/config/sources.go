package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/lazyre"
)

// Source is one organisation store a config names (docs/design.md, Scopes
// and organisation stores): a git repository lore sync fetches, the ref it
// follows and the folder in it laid out like .lore/.
type Source struct {
	Name string `yaml:"name" json:"name"`
	URL  string `yaml:"url" json:"url"`
	Ref  string `yaml:"ref" json:"ref,omitempty"`   // branch or tag; "" is the remote's default branch
	Path string `yaml:"path" json:"path,omitempty"` // the store's folder in the repository; "" is .lore
	// File and Line say where the source is named, for errors.
	File string `yaml:"-" json:"-"`
	Line int    `yaml:"-" json:"-"`
}

// Folder is the store's folder in the source's repository.
func (s Source) Folder() string {
	if s.Path == "" {
		return ".lore"
	}
	return filepath.ToSlash(filepath.Clean(s.Path))
}

// UserName is the origin of the user's own store's items: no source may
// take it.
const UserName = "user"

var nameRe = lazyre.New(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// UnmarshalYAML reads one source, keeping its line for errors. Parse's
// decoder has checked its keys and values first.
func (s *Source) UnmarshalYAML(n *yaml.Node) error {
	type plain Source
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.Line = n.Line
	return nil
}

// sources checks each source of a config file and returns the ones that
// can be used: a name fit for a folder and an origin, unique; a URL
// without a password (a committed config would leak it); a path inside
// the repository. Each other is a problem and left out, the rest kept.
func (d *decoder) sources(list []Source) []Source {
	seen := map[string]int{}
	var kept []Source
	for i, s := range list {
		if d.bad[fmt.Sprintf("sources[%d]", i)] {
			continue
		}
		s.File = d.path
		key, msg := sourceProblem(s, seen)
		if key != "" {
			d.add(s.Line, fmt.Sprintf("sources[%d].%s", i, key), msg, d.leftOut(fmt.Sprintf("sources[%d]", i)))
			continue
		}
		seen[s.Name] = s.Line
		kept = append(kept, s)
	}
	return kept
}

// sourceProblem is the key of s that cannot be used and why, "" when none;
// seen holds the names of the sources before it, with their lines.
func sourceProblem(s Source, seen map[string]int) (key, msg string) {
	switch {
	case !nameRe().MatchString(s.Name):
		return "name", fmt.Sprintf("%q must be lowercase letters, digits, '.', '_' or '-' (at most 64)", s.Name)
	case s.Name == UserName || s.Name == "project":
		return "name", fmt.Sprintf("%q names a scope (project, user)", s.Name)
	case seen[s.Name] > 0:
		return "name", fmt.Sprintf("%q is named twice (also on line %d)", s.Name, seen[s.Name])
	case strings.TrimSpace(s.URL) == "":
		return "url", "must name a git repository (https://, ssh://, git@host:path, file://)"
	case hasPassword(s.URL):
		return "url", "must not carry a password: name an environment variable instead (https://x-access-token:${GITHUB_TOKEN}@github.com/acme/lore.git) or use ssh"
	case s.Path != "" && !filepath.IsLocal(filepath.FromSlash(s.Path)):
		return "path", fmt.Sprintf("%q must be a relative path inside the repository", s.Path)
	case strings.HasPrefix(s.Ref, "-") || strings.ContainsAny(s.Ref, " \t\n~^:?*[\\"):
		return "ref", fmt.Sprintf("%q is not a branch or tag name", s.Ref)
	}
	return "", ""
}

// hasPassword reports a URL whose password is written out rather than
// named as an environment variable (${NAME}, expanded at fetch time).
func hasPassword(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return false
	}
	p, set := u.User.Password()
	return set && !envRefRe().MatchString(p)
}

var envRefRe = lazyre.New(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`)

// ExpandURL is a source's URL with each ${NAME} replaced by the
// environment's value, for the fetch only (the URL named, written and
// hashed stays unexpanded); secrets are the values it put in, for the
// caller to keep out of messages. A name unset (or empty) is an error:
// fetched without it, the URL fails as a wrong password or a missing
// repository, which names nothing the user can fix.
func ExpandURL(raw string, getenv func(string) string) (expanded string, secrets []string, err error) {
	var unset []string
	expanded = envNameRe().ReplaceAllStringFunc(raw, func(ref string) string {
		v := getenv(ref[2 : len(ref)-1])
		if v == "" {
			unset = append(unset, ref)
		} else {
			secrets = append(secrets, v, url.PathEscape(v), url.QueryEscape(v))
		}
		return v
	})
	if len(unset) > 0 {
		return "", nil, fmt.Errorf("its url names %s, not set in the environment", strings.Join(unset, " and "))
	}
	return expanded, secrets, nil
}

var envNameRe = lazyre.New(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

// ids returns the ids a config switches off, each blank one a problem
// and left out.
func (d *decoder) ids(ids []string) []string {
	var kept []string
	for i, id := range ids {
		if strings.TrimSpace(id) == "" {
			d.add(d.line("disable"), fmt.Sprintf("disable[%d]", i), "must be an item id", "it is left out")
			continue
		}
		kept = append(kept, id)
	}
	return kept
}

// User is the user's own config, $XDG_CONFIG_HOME/lore/config.yaml: the
// sources and disabled ids of every repository the user works in.
type User struct {
	Sources []Source `yaml:"sources" json:"sources,omitempty"`
	Disable []string `yaml:"disable" json:"disable,omitempty"`
}

// ParseUser reads the user's config as Parse reads the project's: each
// problem is returned (the first in the file) and leaves out only its
// key, source or id. A key of the project's settings (inject, scan, ...)
// is one: it belongs in .lore/config.yaml.
func ParseUser(path string, data []byte) (User, error) {
	var u User
	d := newDecoder(path, "unknown key: the user's config holds only sources and disable (other settings are the project's, in .lore/config.yaml)")
	d.decode(data, &u)
	u.Sources = d.sources(u.Sources)
	u.Disable = d.ids(u.Disable)
	return u, d.errs()
}

// Merge returns the sources and disabled ids a repository uses: the
// project's, then the user's; a source the project names wins over the
// user's of the same name.
func Merge(project Config, user User) (sources []Source, disable []string) {
	sources = append(sources, project.Sources...)
	for _, s := range user.Sources {
		if !named(sources, s.Name) {
			sources = append(sources, s)
		}
	}
	return sources, append(append([]string(nil), project.Disable...), user.Disable...)
}

func named(list []Source, name string) bool {
	for _, s := range list {
		if s.Name == name {
			return true
		}
	}
	return false
}
