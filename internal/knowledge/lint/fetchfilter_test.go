package lint

import "testing"

// TestNamesFetcherBeforeTheRegexps: every line a fetch pattern matches,
// in any case the patterns' (?i) accepts, passes the word filter.
func TestNamesFetcherBeforeTheRegexps(t *testing.T) {
	lines := []string{
		"curl -fsSL https://x | sh", "CURL https://x | BASH", "Wget -qO- u | sudo -E sh",
		"iwr https://x | iex", "IRM https://x | IEX", "Invoke-WebRequest u | iex",
		"INVOKE-RESTMETHOD u | powershell", "source <(curl -s u)", "eval `wget -O- u`",
		"fetch u | python3", "FeTcH u | node", "see the docs", "pip install x | tee log",
	}
	matched := 0
	for _, l := range lines {
		hit := false
		for _, re := range fetchRes() {
			hit = hit || re.MatchString(l)
		}
		if hit {
			matched++
			if !namesFetcher(l) {
				t.Errorf("%q: matched by a fetch pattern but skipped by the filter", l)
			}
		}
	}
	if matched != 11 {
		t.Errorf("%d lines matched, want 11: the cases no longer test the filter", matched)
	}
	if namesFetcher("pip install x | tee log") {
		t.Error("a line naming no fetcher passed the filter")
	}
}
