package config

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"strconv"
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

var (
	nameRe     = lazyre.New(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	sourceKeys = map[string]bool{"name": true, "url": true, "ref": true, "path": true}
)

// UnmarshalYAML reads one source, keeping its line. A key a source does
// not have is left for Parse's walk (unknownKey), which names it with its
// line and lets the build go on with the source's other keys.
func (s *Source) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return &Error{Line: n.Line, Key: "sources", Msg: "each source is a mapping: {name, url, ref, path}"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !sourceKeys[k.Value] {
			continue
		}
		if v.Kind != yaml.ScalarNode {
			return &Error{Line: v.Line, Key: "sources." + k.Value, Msg: "must be a string"}
		}
	}
	type plain Source
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.Line = n.Line
	return nil
}

// validateSources checks each source of a config file: a name fit for a
// folder and an origin, unique; a URL without a password (a committed
// config would leak it); a path inside the repository.
func validateSources(file string, list []Source) error {
	seen := map[string]int{}
	for i := range list {
		s := &list[i]
		s.File = file
		bad := func(key, msg string) error {
			return &Error{Path: file, Line: s.Line, Key: fmt.Sprintf("sources[%d].%s", i, key), Msg: msg}
		}
		switch {
		case !nameRe().MatchString(s.Name):
			return bad("name", fmt.Sprintf("%q must be lowercase letters, digits, '.', '_' or '-' (at most 64)", s.Name))
		case s.Name == UserName || s.Name == "project":
			return bad("name", fmt.Sprintf("%q names a scope (project, user)", s.Name))
		case seen[s.Name] > 0:
			return bad("name", fmt.Sprintf("%q is named twice (also on line %d)", s.Name, seen[s.Name]))
		case strings.TrimSpace(s.URL) == "":
			return bad("url", "must name a git repository (https://, ssh://, git@host:path, file://)")
		case hasPassword(s.URL):
			return bad("url", "must not carry a password: name an environment variable instead (https://x-access-token:${GITHUB_TOKEN}@github.com/acme/lore.git) or use ssh")
		case s.Path != "" && !filepath.IsLocal(filepath.FromSlash(s.Path)):
			return bad("path", fmt.Sprintf("%q must be a relative path inside the repository", s.Path))
		case strings.HasPrefix(s.Ref, "-") || strings.ContainsAny(s.Ref, " \t\n~^:?*[\\"):
			return bad("ref", fmt.Sprintf("%q is not a branch or tag name", s.Ref))
		}
		seen[s.Name] = s.Line
	}
	return nil
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

// validateDisable checks the ids a config switches off.
func validateDisable(file string, data []byte, ids []string) error {
	for i, id := range ids {
		if strings.TrimSpace(id) == "" {
			return &Error{Path: file, Line: keyLine(data, "disable"), Key: fmt.Sprintf("disable[%d]", i), Msg: "must be an item id"}
		}
	}
	return nil
}

// User is the user's own config, $XDG_CONFIG_HOME/lore/config.yaml: the
// sources and disabled ids of every repository the user works in.
type User struct {
	Sources []Source `yaml:"sources" json:"sources,omitempty"`
	Disable []string `yaml:"disable" json:"disable,omitempty"`
}

// UnmarshalYAML refuses, with its line, a key the user's config does not
// have: the project's settings belong in .lore/config.yaml.
func (u *User) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Value != "sources" && k.Value != "disable" {
				return &Error{Line: k.Line, Key: k.Value, Msg: "unknown key: the user's config holds only sources and disable (other settings are the project's, in .lore/config.yaml)"}
			}
		}
	}
	type plain User
	return n.Decode((*plain)(u))
}

// ParseUser reads the user's config. Unknown keys are errors: the
// project's settings (inject, scan, ...) belong in .lore/config.yaml.
func ParseUser(path string, data []byte) (User, error) {
	var u User
	doc, err := decodeYAML(path, data, &u)
	if err != nil || doc == nil {
		return u, err
	}
	if err := validateSources(path, u.Sources); err != nil {
		return u, err
	}
	if err := validateDisable(path, data, u.Disable); err != nil {
		return u, err
	}
	if err := unknownKey(doc, reflect.TypeFor[User]()); err != nil {
		err.Path = path
		return u, err
	}
	return u, nil
}

// decodeYAML decodes data into v and returns its document, nil (v left
// as it was) when data holds only blanks and comments.
func decodeYAML(path string, data []byte, v any) (*yaml.Node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, decodeError(path, err)
	}
	if len(doc.Content) == 0 { // only comments
		return nil, nil
	}
	if err := doc.Decode(v); err != nil {
		return nil, decodeError(path, err)
	}
	return &doc, nil
}

// decodeError turns a yaml error into one naming the file and line.
func decodeError(path string, err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		ce.Path = path
		return ce
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	line := 1
	if m := lineRe().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(lineRe().ReplaceAllString(msg, ""))
	}
	return &Error{Path: path, Line: line, Msg: "invalid config: " + msg}
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
