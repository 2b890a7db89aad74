package config

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		check      func(Config) bool
		errLine    int    // 0: no error
		errText    string // in the message
	}{
		{"empty is the defaults", "", func(c Config) bool { return c.Inject.Threshold == 0.7 && c.Consolidate.SizeTrigger == 150 }, 0, ""},
		{"the commented template is the defaults", Template, func(c Config) bool {
			d := Default()
			return c.Inject == d.Inject && c.Learnings == d.Learnings && c.Consolidate.FileLimit == d.Consolidate.FileLimit
		}, 0, ""},
		{"one key over the defaults", "inject:\n  maxItems: 2\n", func(c Config) bool { return c.Inject.MaxItems == 2 && c.Inject.BudgetBytes == 4096 }, 0, ""},
		{"paths inside the work tree", "learnings: docs/learnings.md\nconsolidate:\n  report: ./tmp/r.md\n", func(c Config) bool { return c.Learnings == "docs/learnings.md" }, 0, ""},
		{"routes", "consolidate:\n  routes:\n    - match: deploy\n      target: docs/deploy.md\n", func(c Config) bool {
			return len(c.Consolidate.Routes) == 1 && c.Consolidate.Routes[0].Target == "docs/deploy.md"
		}, 0, ""},
		{"an unknown key is an error, not a silent default", "inject:\n  maxitems: 2\n", nil, 2, "maxitems"},
		{"each unknown key names its own line and the keys of its mapping", "disable: []\ninject:\n  maxItems: 2\n  thrshold: 0.6\n", nil, 4,
			"config.yaml:4: inject.thrshold: unknown key (inject has budgetBytes, drafts, maxItems, minConfidence, reinjectPriority, sessionBudgetBytes, threshold)"},
		{"an unknown top-level key", "disabel: [x]\n", nil, 1, "disabel: unknown key (the config has consolidate, disable, "},
		{"an unknown key in a list of mappings", "consolidate:\n  routes:\n    - match: a\n      taget: docs/a.md\n", nil, 4, "consolidate.routes[0].taget: unknown key (consolidate.routes[0] has kind, match, target)"},
		{"a wrong type names its line", "scan:\n  maxCandidates: many\n", nil, 2, "many"},
		{"a value out of range names its key and line", "inject:\n  budgetBytes: 4096\n  minConfidence: 1.5\n", nil, 3, "inject.minConfidence"},
		{"the session budget", "inject:\n  sessionBudgetBytes: 2048\n", func(c Config) bool { return c.Inject.SessionBudgetBytes == 2048 }, 0, ""},
		{"the session budget defaults to 6144", "inject:\n  maxItems: 2\n", func(c Config) bool { return c.Inject.SessionBudgetBytes == 6144 }, 0, ""},
		{"a session budget over the client's cap", "inject:\n  maxItems: 2\n  sessionBudgetBytes: 20000\n", nil, 3, "inject.sessionBudgetBytes: must be within 256..8192"},
		{"broken YAML", "inject: [\n", nil, 1, "invalid config"},
		{"learnings outside the work tree", "# staging\nlearnings: ../x.md\n", nil, 2, "learnings: \"../x.md\" must be a relative path inside the work tree"},
		{"an absolute learnings path", "learnings: /tmp/x.md\n", nil, 1, "learnings:"},
		{"learnings in the git folder", "learnings: .git/hooks/pre-commit\n", nil, 1, "not under .git"},
		{"learnings that climbs out through a folder", "learnings: docs/../../x.md\n", nil, 1, "learnings:"},
		{"a report outside the work tree", "consolidate:\n  minBatch: 3\n  report: ../../r.md\n", nil, 3, "consolidate.report:"},
		{"sources and disable", "sources:\n  - {name: acme, url: 'https://example.com/lore.git', ref: main}\n  - name: infra\n    url: git@example.com:infra/lore.git\n    path: knowledge\ndisable: [01JRQABE0000000000000000G1]\n", func(c Config) bool {
			return len(c.Sources) == 2 && c.Sources[0].Line == 2 && c.Sources[0].File == ".lore/config.yaml" && c.Sources[1].Folder() == "knowledge" && c.Sources[0].Folder() == ".lore" && len(c.Disable) == 1
		}, 0, ""},
		{"a source without a url", "sources:\n  - name: acme\n    ref: main\n", nil, 2, "sources[0].url: must name a git repository"},
		{"a source's unknown key names its line", "sources:\n  - name: acme\n    url: x\n    branch: main\n", nil, 4, "sources[0].branch: unknown key (sources[0] has name, path, ref, url)"},
		{"a source named twice", "sources:\n  - {name: acme, url: a}\n  - {name: acme, url: b}\n", nil, 3, `"acme" is named twice (also on line 2)`},
		{"a source named like a scope", "sources:\n  - {name: user, url: a}\n", nil, 2, "sources[0].name"},
		{"a source name unfit for a folder", "sources:\n  - {name: ../x, url: a}\n", nil, 2, "sources[0].name"},
		{"a password in a committed url", "sources:\n  - {name: acme, url: 'https://bob:hunter2@example.com/x.git'}\n", nil, 2, "must not carry a password"},
		{"a token named by its environment variable", "sources:\n  - {name: acme, url: 'https://x-access-token:${GITHUB_TOKEN}@github.com/acme/lore.git'}\n", func(c Config) bool {
			u, secrets, err := ExpandURL(c.Sources[0].URL, func(k string) string { return map[string]string{"GITHUB_TOKEN": "t0k"}[k] })
			_, _, unset := ExpandURL(c.Sources[0].URL, func(string) string { return "" })
			return err == nil && u == "https://x-access-token:t0k@github.com/acme/lore.git" && len(secrets) > 0 && secrets[0] == "t0k" &&
				unset != nil && strings.Contains(unset.Error(), "${GITHUB_TOKEN}, not set")
		}, 0, ""},
		{"a path outside the source", "sources:\n  - {name: acme, url: a, path: ../x}\n", nil, 2, "sources[0].path"},
		{"a blank disable", "inject:\n  maxItems: 2\ndisable: ['']\n", nil, 3, "disable[0]: must be an item id"},
		{"the second route's target outside", "consolidate:\n  routes:\n    - match: a\n      target: docs/a.md\n    - target: ../b.md\n      match: b\n", nil, 5, "consolidate.routes[1].target:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(".lore/config.yaml", []byte(tc.yaml))
			if tc.errLine == 0 {
				if err != nil || !tc.check(c) {
					t.Fatalf("Parse: %+v, %v", c, err)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Line != tc.errLine || !strings.Contains(err.Error(), tc.errText) || !strings.HasPrefix(err.Error(), ".lore/config.yaml:") {
				t.Fatalf("Parse error = %v, want line %d mentioning %q", err, tc.errLine, tc.errText)
			}
		})
	}
}

// A config whose only problem is an unknown key comes back with every
// other key read, for the commands that go on without it.
func TestParseKeepsTheKnownKeys(t *testing.T) {
	c, err := Parse(".lore/config.yaml", []byte("inject:\n  thrshold: 0.6\n  maxItems: 2\nsources:\n  - {name: acme, url: a}\n"))
	var ce *Error
	if !errors.As(err, &ce) || !ce.Unknown || c.Inject.MaxItems != 2 || len(c.Sources) != 1 || c.Inject.Threshold != 0.7 {
		t.Fatalf("Parse: %+v, %v", c, err)
	}
	if _, err := Parse(".lore/config.yaml", []byte("inject:\n  maxItems: 0\n  thrshold: 0.6\n")); !errors.As(err, &ce) || ce.Unknown {
		t.Fatalf("an invalid value is no unknown key: %v", err)
	}
	// A source's unknown key too: the source, and its guards, stay.
	c, err = Parse(".lore/config.yaml", []byte("sources:\n  - {name: acme, url: a, reff: main}\n"))
	if !errors.As(err, &ce) || !ce.Unknown || ce.Line != 2 || ce.Key != "sources[0].reff" || len(c.Sources) != 1 || c.Sources[0].URL != "a" {
		t.Fatalf("a source's unknown key: %+v, %v", c.Sources, err)
	}
	// The user's config refuses it, naming it.
	if _, err := ParseUser("/u/config.yaml", []byte("sources:\n  - {name: acme, url: a, reff: main}\n")); !errors.As(err, &ce) || ce.Key != "sources[0].reff" || ce.Path != "/u/config.yaml" {
		t.Fatalf("a user source's unknown key: %v", err)
	}
}

func TestParseUserAndMerge(t *testing.T) {
	u, err := ParseUser("/home/u/.config/lore/config.yaml", []byte("sources:\n  - {name: acme, url: https://user.example/acme.git}\n  - {name: mine, url: file:///srv/mine.git}\ndisable: [A]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(".lore/config.yaml", []byte("sources:\n  - {name: acme, url: https://team.example/acme.git}\ndisable: [B]\n"))
	if err != nil {
		t.Fatal(err)
	}
	src, dis := Merge(p, u)
	if len(src) != 2 || src[0].URL != "https://team.example/acme.git" || src[1].Name != "mine" || src[1].File != "/home/u/.config/lore/config.yaml" ||
		strings.Join(dis, ",") != "B,A" {
		t.Fatalf("Merge = %+v, %v", src, dis)
	}
	// A project key says where it belongs, on its own line.
	if _, err := ParseUser("/u/config.yaml", []byte("sources: []\ninject:\n  maxItems: 2\n")); err == nil ||
		!strings.HasPrefix(err.Error(), "/u/config.yaml:2:") || !strings.Contains(err.Error(), "inject") || !strings.Contains(err.Error(), "only sources and disable") {
		t.Fatalf("a project key in the user's config: %v", err)
	}
}
