package match

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

func TestLineWindows(t *testing.T) {
	for pat, windowed := range map[string]bool{
		`\bdatetime\.utcnow\(`:                               true,
		`(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?[\w.]+\.fetch_json\(`: true,
		`(?i)\bMock\.patch\(["']app\.`:                       true,
		`\bsubprocess\.\w+\(.*shell\s*=\s*True`:              false, // \s crosses lines
		`(?s)mock\.patch\(.*app\.`:                           false,
		`^import os`:                                         false, // ^ is the start of the text
		`load_dotenv\(\)$`:                                   false,
		`[^;]*await`:                                         false,
		`mock\.patch\(\n`:                                    false,
		`\w+\(`:                                              false, // no literal
	} {
		if got := lineWindows(pat) != nil; got != windowed {
			t.Errorf("lineWindows(%q) = %v, want %v", pat, got, windowed)
		}
	}
}

// TestAddedMatchesAgreesWithRegexp: on long texts, matching only the lines
// around the literals gives the answer of running the pattern on the whole
// text, for patterns a store has and texts built from pieces that match,
// nearly match and do not match them.
func TestAddedMatchesAgreesWithRegexp(t *testing.T) {
	pats := []string{
		`\bdatetime\.utcnow\(`,
		`(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?[\w.]+\.fetch_json\(`,
		`\bmock\.patch\(\s*["\x27]app\.clients\.`,
		`(?i)\bMOCK\.PATCH\(["']app\.`,
		`\bconsole\.log\(`,
		`(?m)^\s*asyncio\.sleep\(`,
		`(?m)load_dotenv\(\)$`,
		`\byaml\.load\((?:[^,)]*)\)`,
	}
	pieces := []string{
		"x = datetime.utcnow()", "datetime.utcnow", "mydatetime.utcnow(", "DATETIME.UTCNOW(",
		"  data = client.fetch_json(url)", "data = client.\nfetch_json(", "fetch_json(",
		`@mock.patch("app.clients.fetch")`, "@mock.patch(\n  'app.clients.x')", `mock.patch('app.x')`, `Mock.Patch("app.y")`,
		"console.log(x)", "console.\nlog(", "   asyncio.sleep(1)", "x asyncio.sleep(",
		"load_dotenv()", "load_dotenv() # late", "yaml.load(f)", "yaml.load(f, Loader=SafeLoader)",
		"def handler(request):\n    return render(request, 'page.html')\n", "ſ", "\r\n", "",
	}
	rng := rand.New(rand.NewSource(15))
	hits := map[bool]int{}
	for n := 0; n < 400; n++ {
		some := rng.Perm(len(pieces))[:1+rng.Intn(4)] // a few pieces a text: both answers occur
		var b strings.Builder
		for b.Len() < windowMin+rng.Intn(8<<10) {
			b.WriteString(pieces[some[rng.Intn(len(some))]])
			b.WriteString([]string{"\n", " ", "", "\n\n"}[rng.Intn(4)])
		}
		text := b.String()
		e := &eval{added: text}
		for _, p := range pats {
			re := regexp.MustCompile(p)
			got, want := e.addedMatches(re, p), re.MatchString(text)
			if got != want {
				t.Fatalf("%q on a %d-byte text: windows say %v, the whole text %v\n%s", p, len(text), got, want, text)
			}
			hits[want]++
		}
	}
	if hits[true] < 100 || hits[false] < 100 {
		t.Errorf("the texts test too little: %d matches, %d non-matches", hits[true], hits[false])
	}
}
