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
		{"broken YAML", "inject: [\n", nil, 1, "invalid YAML"},
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

// A config with a problem comes back with every other key read and the
// bad one at its default (a bad source or route left out): the commands
// that compile go on with it.
func TestParseKeepsTheOtherKeys(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, key string
		line            int
		check           func(Config) bool
	}{
		{"an unknown key", "inject:\n  thrshold: 0.6\n  maxItems: 2\nsources:\n  - {name: acme, url: a}\n", "inject.thrshold", 2,
			func(c Config) bool { return c.Inject.MaxItems == 2 && len(c.Sources) == 1 && c.Inject.Threshold == 0.7 }},
		{"a word for a number", "inject:\n  maxItems: 2\n  threshold: high\n  budgetBytes: 1000\n", "inject.threshold", 3,
			func(c Config) bool {
				return c.Inject.MaxItems == 2 && c.Inject.Threshold == 0.7 && c.Inject.BudgetBytes == 1000
			}},
		{"a list for a string", "learnings: [a, b]\ninject:\n  maxItems: 2\n", "learnings", 1,
			func(c Config) bool { return c.Learnings == Default().Learnings && c.Inject.MaxItems == 2 }},
		{"a number for a mapping", "inject: 5\nstats:\n  minCalls: 4\n", "inject", 1,
			func(c Config) bool { return c.Inject == Default().Inject && c.Stats.MinCalls == 4 }},
		{"a value out of range", "inject:\n  maxItems: 0\n  threshold: 0.5\n", "inject.maxItems", 2,
			func(c Config) bool { return c.Inject.MaxItems == 3 && c.Inject.Threshold == 0.5 }},
		{"a threshold below zero would inject everything", "inject:\n  threshold: -1\n", "inject.threshold", 2,
			func(c Config) bool { return c.Inject.Threshold == 0.7 }},
		{"learnings outside the work tree", "learnings: ../x.md\nshare: true\n", "learnings", 1,
			func(c Config) bool { return c.Learnings == Default().Learnings && c.Share }},
		// A source's unknown key leaves it out: rev: meant ref:, and
		// without it the source would follow another branch.
		{"a source's unknown key", "sources:\n  - {name: acme, url: a, rev: main}\n  - {name: infra, url: b}\n", "sources[0].rev", 2,
			func(c Config) bool {
				return len(c.Sources) == 1 && c.Sources[0].Name == "infra" && c.Sources[0].Line == 3
			}},
		// A source with a bad value is left out whole (its ref at the
		// default would follow another branch); the next keeps its index.
		{"a source's bad ref", "sources:\n  - {name: acme, url: a, ref: [main]}\n  - {name: infra, url: b}\n  - {name: Bad, url: c}\n", "sources[0].ref", 2,
			func(c Config) bool {
				return len(c.Sources) == 1 && c.Sources[0].Name == "infra" && c.Sources[0].Line == 3
			}},
		{"a source that is not a mapping", "sources:\n  - acme\n  - {name: infra, url: b}\n", "sources[0]", 2,
			func(c Config) bool { return len(c.Sources) == 1 && c.Sources[0].Name == "infra" }},
		{"a route outside the work tree", "consolidate:\n  routes:\n    - {match: a, target: ../a.md}\n    - {match: b, target: docs/b.md}\n", "consolidate.routes[0].target", 3,
			func(c Config) bool { return len(c.Consolidate.Routes) == 1 && c.Consolidate.Routes[0].Match == "b" }},
		{"a key set twice", "inject:\n  maxItems: 2\ninject:\n  maxItems: 5\n  threshold: 0.5\n", "inject", 3,
			func(c Config) bool { return c.Inject.MaxItems == 2 && c.Inject.Threshold == 0.7 }},
		{"a blank id", "disable: ['', A]\n", "disable[0]", 1, func(c Config) bool { return len(c.Disable) == 1 && c.Disable[0] == "A" }},
		{"YAML that does not parse", "inject:\n  maxItems: 2\n sources: [\n", "inject", 2, func(c Config) bool { return c.Inject == Default().Inject }},
		// The other keys are read: a broken disable list keeps the
		// sources, and their guards.
		{"a key whose YAML does not parse", "# team\nsources:\n  - {name: acme, url: a}\n\ndisable: [01M8JEXZS18Y222WM63EY7SYRY\ninject:\n  maxItems: 2\n", "disable", 5,
			func(c Config) bool {
				return len(c.Sources) == 1 && c.Sources[0].Line == 3 && c.Disable == nil && c.Inject.MaxItems == 2
			}},
		{"a tab under a key", "sources:\n  - {name: acme, url: a}\ninject:\n\tmaxItems: 2\n", "inject", 4,
			func(c Config) bool { return len(c.Sources) == 1 && c.Inject.MaxItems == 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(".lore/config.yaml", []byte(tc.yaml))
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != tc.key || ce.Line != tc.line || !Usable(err) || !tc.check(c) {
				t.Fatalf("Parse: %+v, %v", c, err)
			}
		})
	}
	// The second problem is kept out too; the error reads as the first.
	var ce *Error
	c, err := Parse(".lore/config.yaml", []byte("inject:\n  maxItems: 0\n  threshold: high\n"))
	if err == nil || !errors.As(err, &ce) || !strings.HasSuffix(ce.WithEffect(), ":2: inject.maxItems: must be >= 1; the default, 3, is used until it is fixed") || c.Inject.Threshold != 0.7 {
		t.Fatalf("two problems: %+v, %v", c.Inject, err)
	}
	if _, err := Parse(".lore/config.yaml", []byte("inject:\n  threshold: high\n")); !errors.As(err, &ce) ||
		ce.WithEffect() != `.lore/config.yaml:2: inject.threshold: "high", not a number; the default, 0.7, is used until it is fixed` {
		t.Fatalf("a word for a number: %v", err)
	}
	// Every problem is returned, in line order.
	_, err = Parse(".lore/config.yaml", []byte("inject:\n  maxItems: three\n  threshold: high\n  budgetBytes: -5\nconsolidate:\n  sizeTrigger: lots\n"))
	var all Errors
	if !errors.As(err, &all) || len(all) != 4 || all[0].Key != "inject.maxItems" || all[1].Key != "inject.threshold" ||
		all[2].Key != "inject.budgetBytes" || all[3].Key != "consolidate.sizeTrigger" || !strings.HasSuffix(err.Error(), "(and 3 more problems: lore lint lists them)") {
		t.Fatalf("every problem: %v", err)
	}
	// The user's config the same way: a project key is named and its
	// sources are kept.
	u, err := ParseUser("/u/config.yaml", []byte("inject:\n  maxItems: 2\nsources:\n  - {name: acme, url: a}\n  - {name: x, url: ''}\n"))
	if !errors.As(err, &ce) || ce.Key != "inject" || ce.Path != "/u/config.yaml" || len(u.Sources) != 1 || u.Sources[0].Name != "acme" {
		t.Fatalf("the user's config: %+v, %v", u, err)
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
