package lint

import (
	"fmt"

	"github.com/lore-agents/lore/internal/knowledge/redact"
)

// checkSecrets flags what scan would redact from a transcript: one
// detector (gitleaks' rules and lore's heuristics), so a secret that
// reaches an item by hand is caught as surely as one from a session. A
// detector that cannot run is an error too: lint fails closed.
func checkSecrets(p string, data []byte) []Finding {
	spans, err := redact.Find(string(data))
	if err != nil {
		return []Finding{{Path: p, Key: "secret", Msg: fmt.Sprintf("the secret check could not run: %v", err), Severity: Error}}
	}
	var out []Finding
	for _, sp := range spans {
		l, c := position(data, sp.Start)
		out = append(out, Finding{Path: p, Line: l, Col: c, Key: "secret",
			Msg: fmt.Sprintf("looks like a secret (%s%s): remove it and rotate the credential", sp.Kind, hint(string(data[sp.Start:sp.End]))), Severity: Error})
	}
	return out
}

// hint shows the first characters of a long secret, enough to find it,
// too few to use it; a short one shows nothing.
func hint(secret string) string {
	if len(secret) < 16 {
		return ""
	}
	return ", " + secret[:4] + "..."
}
