// Package synthetic makes stores of item files shaped like real ones, for
// benchmarks and tests (never linked into lore).
package synthetic

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// BenchCommand is the shell command the benchmarks time: Files
// puts several items that match it in every store.
const BenchCommand = "cd services/api && pytest -x tests/unit -q"

// A store's items cluster on the popular tools, as real stores do: most
// items are Bash lessons on git, npm, pytest, docker and kubectl, a share on
// other tools, and file, keyword and path items. Each family lists command
// patterns; %s takes a word of the family's args, so a large store repeats
// some patterns and has many distinct ones.
type family struct {
	weight int
	pats   []string
	args   []string
}

var families = []family{
	{20, []string{`\bgit\s+push\b.*--force\b`, `^git\s+commit\b.*--amend\b`, `\bgit\s+rebase\s+-i\b`, `\bgit\s+reset\s+--hard\b`,
		`\bgit\s+checkout\s+%s\b`, `\bgit\s+stash\s+pop\b`, `\bgit\s+clean\s+-[a-z]*f`, `\bgit\s+merge\b.*\b%s\b`,
		`\bgit\s+cherry-pick\b`, `\bgit\s+submodule\s+update\b`, `\bgit\s+push\s+origin\s+%s\b`, `\bgit\s+tag\s+-d\b`},
		[]string{"main", "develop", "release", "hotfix", "staging", "gh-pages", "prod", "v2"}},
	{12, []string{`\bnpm\s+install\b.*--legacy-peer-deps`, `^npm\s+ci\b`, `\bnpm\s+publish\b`, `\bnpm\s+run\s+%s\b`,
		`\bnpm\s+audit\s+fix\b.*--force`, `\bnpx\s+%s\b`, `\bnpm\s+version\s+(major|minor|patch)\b`, `\bnpm\s+install\s+%s\b`},
		[]string{"build", "lint", "test:e2e", "storybook", "prettier", "eslint", "webpack", "typeorm", "prisma", "jest"}},
	// pytest items that do not match BenchCommand; those gated on "pytest"
	// still pass the literal pre-filter and are scored.
	{14, []string{`\bpytest\b.*--cov\b`, `\bpytest\b.*\s-n\s*auto\b`, `\bpytest\b.*tests/%s\b`, `\bpytest\b.*--lf\b`,
		`python\s+-m\s+pytest\b.*-k\s+%s`, `\bpytest\b.*--pdb\b`, `\bpytest\b.*--snapshot-update\b`, `\bpytest\b.*-m\s+%s\b`},
		[]string{"integration", "e2e", "billing", "auth", "search", "slow", "smoke", "migrations", "payments", "worker"}},
	{12, []string{`\bdocker\s+build\b.*--no-cache\b`, `\bdocker\s+run\b.*--privileged\b`, `\bdocker\s+compose\s+down\b.*\s-v\b`,
		`\bdocker\s+system\s+prune\b`, `\bdocker\s+push\s+\S*%s`, `\bdocker\s+exec\s+-it\s+%s\b`, `\bdocker\s+rmi\b`, `\bdocker-compose\s+up\b`},
		[]string{"api", "web", "worker", "db", "redis", "nginx", "registry.example.com", "ghcr.io"}},
	{10, []string{`\bkubectl\s+apply\s+-f\b`, `\bkubectl\s+delete\s+(ns|namespace)\b`, `\bkubectl\s+rollout\s+restart\b`,
		`\bkubectl\b.*--context\s+%s\b`, `\bkubectl\s+port-forward\b`, `\bkubectl\s+scale\b.*--replicas=0`, `\bkubectl\s+edit\b`,
		`\bkubectl\s+logs\b.*-n\s+%s\b`},
		[]string{"prod", "staging", "kube-system", "monitoring", "ingress", "payments", "eu-west", "us-east"}},
	{14, []string{`\bgo\s+test\b.*-race\b`, `\bgo\s+mod\s+tidy\b`, `\bcargo\s+build\b.*--release\b`, `\bmake\s+%s\b`,
		`\bterraform\s+apply\b.*-auto-approve\b`, `\bterraform\s+destroy\b`, `\bpsql\b.*-c\s`, `\bpip\s+install\b.*--break-system-packages`,
		`\byarn\s+add\s+%s\b`, `\bhelm\s+upgrade\b.*--install\b`, `\baws\s+s3\s+rm\b.*--recursive\b`, `\bcurl\b.*\|\s*(ba)?sh\b`,
		`\brm\s+-rf\s+%s`, `\bsed\s+-i\b`, `\bchmod\s+-R\s+777\b`, `\bmvn\s+deploy\b`},
		[]string{"release", "deploy", "clean", "dist", "node_modules", "build", "migrate", "lodash"}},
}

// matching are the items that match BenchCommand: a store has several.
var matching = []struct{ tools, commands, unless string }{
	{"[Bash]", `['\bpytest\b']`, `['--no-header', 'TERM=dumb']`},
	{"[Bash]", `['^pytest\b.*\s-x\b']`, ``},
	{"[Bash]", `['\bpytest\b.*tests/unit\b']`, ``},
	{"[Bash]", `['\bpytest\s.*-q\b']`, `['--tb=']`},
	{"[Bash]", `['^cd\s+services/api\b']`, ``},
	{"[Bash]", `['\bpytest\b', 'python\s+-m\s+pytest\b']`, `['-p\s+no:cacheprovider']`},
}

var pathGlobs = []string{"**/Dockerfile", "**/*.py", "services/*/migrations/**", "**/package.json", "**/conftest.py",
	".github/workflows/*.yml", "k8s/**/*.yaml", "**/go.mod", "src/%s/**", "**/%s/settings.py"}

var pathArgs = []string{"billing", "auth", "search", "api", "web", "worker", "core", "payments"}

// codeLessons are content triggers (regexes over the text an edit adds)
// and a line of code each one matches.
var codeLessons = []struct{ pat, sample string }{
	{`\bdatetime\.utcnow\(`, "stamp = datetime.utcnow()"},
	{`\bmock\.patch\(\s*["\x27]app\.clients\.`, `@mock.patch("app.clients.fetch")`},
	{`(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?[\w.]+\.fetch_json\(`, "data = client.fetch_json(url)"},
	{`\bexcept\s*:`, "except:"},
	{`\bconsole\.log\(`, "console.log(result)"},
	{`\bos\.environ\[`, `key = os.environ["API_KEY"]`},
	{`\byaml\.load\(`, "cfg = yaml.load(f)"},
	{`\bsubprocess\.\w+\(.*shell\s*=\s*True`, "subprocess.run(cmd, shell=True)"},
}

var keywordSets = []string{"'release', 'version bump'", "'deploy to staging'", "'database migration'", "'rotate the keys'",
	"'changelog'", "'hotfix'", "'feature flag'", "'load test'"}

// Files returns n valid, active item files (repo-relative path ->
// content) for benchmarks, shaped like a real store (see families): about
// 80% Bash lessons clustered on git, npm, pytest, docker and kubectl, 12%
// file lessons (a quarter of them on the code an edit adds: content
// triggers), 4% path pitfalls, 4% keyword lessons, bodies of 0.6-1.3 KB,
// a few critical items that deny (none matching BenchCommand), and about
// one item in 170 (at least the six of matching) that matches BenchCommand.
// No item names the WebSearch tool. The same n gives the same store.
func Files(n int) map[string][]byte {
	files := make(map[string][]byte, n)
	rng := rand.New(rand.NewPCG(14, uint64(n)))
	every := max(1, min(n/len(matching), 170)) // a matching item every so often
	total := 0
	for _, f := range families {
		total += f.weight
	}
	for i := 0; i < n; i++ {
		id := ulid.MustNew(uint64(1700000000000+i), bytes.NewReader(make([]byte, 16))).String()
		s := synthItem{kind: "lesson", prio: []string{"medium", "medium", "high", "high", "low", "critical", "medium", "high"}[rng.IntN(8)]}
		switch r := rng.IntN(100); {
		case i%every == 0:
			s.matching(i / every)
		case r < 80:
			s.bash(rng, total)
		case r < 83 || i == n/2: // at least one, for the small stores of tests
			s.code(i)
		case r < 92:
			s.path(rng)
		case r < 96:
			s.pitfall(rng, i)
		default:
			s.keyword(rng)
		}
		folder, body := "lessons", lessonBody(rng, s.subject)
		if s.kind == "pitfall" {
			folder, body = "pitfalls", pitfallBody(rng, s.subject)
		}
		files[fmt.Sprintf(".lore/%s/item-%05d.md", folder, i)] = []byte(fmt.Sprintf(
			"---\nid: %s\nkind: %s\ntitle: 'Watch out with %.60s (%d)'\nstatus: active\npriority: %s\n%s%stags: [team:platform]\ntriggers:\n%s---\n\n%s",
			id, s.kind, s.subject, i, s.prio, s.ref, s.extra, s.trig, body))
	}
	return files
}

// synthItem is the frontmatter of one synthetic item; each family of
// items fills it in its own method (drawing from rng in a fixed order, so
// the same n gives the same store).
type synthItem struct {
	kind, ref, trig, extra, subject, prio string
}

// matching is the k-th item that matches BenchCommand.
func (s *synthItem) matching(k int) {
	m := matching[k%len(matching)]
	s.trig = "  tools: " + m.tools + "\n  commands: " + m.commands + "\n"
	if m.unless != "" {
		s.trig += "  unless: " + m.unless + "\n"
	}
	s.subject = "pytest in services/api"
	s.prio = []string{"high", "medium", "critical"}[k%3]
}

// bash is a Bash lesson of one of the families.
func (s *synthItem) bash(rng *rand.Rand, total int) {
	f := pick(rng, total)
	pat := f.pats[rng.IntN(len(f.pats))]
	if strings.Contains(pat, "%s") {
		pat = fmt.Sprintf(pat, f.args[rng.IntN(len(f.args))])
	}
	s.trig = "  tools: [Bash]\n  commands: ['" + pat + "']\n"
	if rng.IntN(5) == 0 {
		s.trig += "  unless: ['--dry-run']\n"
	}
	s.subject = strings.NewReplacer(`\b`, "", `\s+`, " ", `\s`, " ", `^`, "", `.*`, " ").Replace(pat)
	if s.prio == "critical" && rng.IntN(3) == 0 && strings.Contains(pat, "--force") {
		s.extra = "enforce: deny\n"
	}
}

// code is a lesson on the code an edit adds.
func (s *synthItem) code(i int) {
	c := codeLessons[i%len(codeLessons)]
	s.trig = "  tools: [Edit, Write]\n  content: ['" + c.pat + "']\n"
	s.subject = "adding " + c.sample
	s.atLeastMedium()
}

// path is a lesson on editing the files of a glob.
func (s *synthItem) path(rng *rand.Rand) {
	g := pathGlobs[rng.IntN(len(pathGlobs))]
	if strings.Contains(g, "%s") {
		g = fmt.Sprintf(g, pathArgs[rng.IntN(len(pathArgs))])
	}
	s.trig = "  tools: [Edit, Write]\n  paths: ['" + g + "']\n"
	s.subject = "editing " + g
	s.atLeastMedium()
}

func (s *synthItem) atLeastMedium() {
	if s.prio == "low" {
		s.prio = "medium"
	}
}

// pitfall is the i-th item, a pitfall on the code under a folder.
func (s *synthItem) pitfall(rng *rand.Rand, i int) {
	s.kind, s.ref = "pitfall", fmt.Sprintf("ref: PF-%04d\n", i)
	g := fmt.Sprintf("src/%s/**", pathArgs[rng.IntN(len(pathArgs))])
	s.trig = "  tools: [Read, Edit, Write]\n  paths: ['" + g + "']\n"
	s.subject = "code under " + g
}

// keyword is a keyword-only lesson: it fires only with its keyword, at
// any priority from medium.
func (s *synthItem) keyword(rng *rand.Rand) {
	kw := keywordSets[rng.IntN(len(keywordSets))]
	s.trig = "  keywords: [" + kw + "]\n"
	s.subject = "requests about " + strings.ReplaceAll(kw, "'", "")
	s.prio = "high"
}

func pick(rng *rand.Rand, total int) family {
	r := rng.IntN(total)
	for _, f := range families {
		if r < f.weight {
			return f
		}
		r -= f.weight
	}
	return families[0]
}

var sentences = []string{
	"The agent ran it the way the README of two years ago says, and the run failed halfway with a misleading error.",
	"It works on a laptop but not in CI, where the environment has no TTY and a different working directory.",
	"The failure only shows after a few minutes, so the agent retried three times before anyone noticed.",
	"This cost us a broken staging deploy and an hour of bisecting last quarter.",
	"The command succeeds but leaves state behind that the next step trips over.",
	"Colleagues reviewing the pull request could not reproduce it without the same local cache.",
	"The error message names the wrong file; the real cause is the configuration one folder up.",
	"Running it from the repository root instead of the service folder picks up the wrong settings.",
}

func paragraph(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentences[rng.IntN(len(sentences))])
	}
	return b.String()
}

func lessonBody(rng *rand.Rand, subject string) string {
	return fmt.Sprintf("## Mistake\nWhen %s: %s\n\n## Fix\nCheck the target first, then run it with the flags the team agreed on:\n\n"+
		"```sh\nmake check && %s\n```\n\n%s\n\n## Why\n%s\n",
		subject, paragraph(rng, 1+rng.IntN(3)), subject, paragraph(rng, 1+rng.IntN(2)), paragraph(rng, 1+rng.IntN(3)))
}

func pitfallBody(rng *rand.Rand, subject string) string {
	return fmt.Sprintf("## Issue\n%s touches shared state. %s\n\n## Impact\n%s\n\n## Avoid\nRead the owning team's notes first. %s\n",
		subject, paragraph(rng, 1+rng.IntN(2)), paragraph(rng, 1+rng.IntN(2)), paragraph(rng, 1))
}

// Items parses Files(n).
func Items(n int) []*markdown.Item {
	files := Files(n)
	items := make([]*markdown.Item, 0, n)
	for path, data := range files {
		it, err := markdown.Parse(path, data)
		if err != nil {
			panic(err) // the generator is wrong
		}
		items = append(items, it)
	}
	return items
}
