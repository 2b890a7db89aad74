package doctor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/lore-agents/lore/internal/integrate/agent"
)

// Codex runs a project's hooks only when the project is trusted in
// $CODEX_HOME/config.toml ([projects."<path>"] trust_level = "trusted") and
// each hook's trusted_hash there ([hooks.state."<file>:<event>:<group>:<handler>"])
// equals the hash of the hook as it is now; `codex exec` skips the others
// without a word (docs/clients.md, Codex trust).

// codexConfig is the part of Codex's config.toml that decides trust.
type codexConfig struct {
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	Hooks struct {
		State map[string]struct {
			Enabled     *bool  `toml:"enabled"`
			TrustedHash string `toml:"trusted_hash"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// codexHook is one of lore's handlers in .codex/hooks.json, as Codex reads it.
type codexHook struct {
	event         string // "PreToolUse"
	group, index  int    // its matcher group's index in the event's list, its own in the group
	matcher       *string
	command       string
	timeout       *uint64
	async         bool
	statusMessage *string
}

// Codex's hook states, as its /hooks view names them.
const (
	codexTrusted   = "trusted"
	codexUntrusted = "never trusted"
	codexModified  = "changed since trusted"
	codexDisabled  = "turned off in Codex's /hooks"
)

const codexReview = "start `codex` in this repository and accept \"Hooks need review\" (Trust all and continue); " +
	"or, for one run, `codex exec --dangerously-bypass-hook-trust`"

// codexTrust reports whether Codex will run lore's hooks in the work tree
// at root: the project's trust, then each hook's.
func codexTrust(root, config string) []Finding {
	if config == "" {
		return []Finding{{"codex", Info, "no home folder: Codex's trust of these hooks is unmeasured", ""}}
	}
	var cfg codexConfig
	_, err := toml.DecodeFile(config, &cfg)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return []Finding{{"codex", Action, fmt.Sprintf("cannot read %s: %v", config, err), "fix that line of " + config}}
	}
	hooks, err := codexLoreHooks(root)
	if err != nil {
		return []Finding{{"codex", Action, err.Error(), "lore init --agent codex"}}
	}
	return append(codexProject(root, config, cfg), codexHooks(root, config, cfg, hooks))
}

// codexProject reports the project's trust level.
func codexProject(root, config string, cfg codexConfig) []Finding {
	level, key := "", ""
	for _, k := range trustKeys(root) {
		if p, ok := cfg.Projects[k]; ok && p.TrustLevel != "" {
			level, key = p.TrustLevel, k
			break
		}
	}
	fix := fmt.Sprintf("start `codex` here and trust the folder, or add [projects.%q] trust_level = \"trusted\" to %s", root, config)
	switch level {
	case "trusted":
		return nil
	case "":
		return []Finding{{"codex", Action, fmt.Sprintf("%s is not a trusted project in %s: Codex loads no project hooks here", root, config), fix}}
	}
	return []Finding{{"codex", Action, fmt.Sprintf("%s marks %s %q: Codex loads no project hooks here", config, key, level), fix}}
}

// codexHooks reports the trust of each of lore's hooks, grouped by state.
func codexHooks(root, config string, cfg codexConfig, hooks []codexHook) Finding {
	file := filepath.Join(root, ".codex", "hooks.json")
	byState := map[string][]string{}
	for _, h := range hooks {
		s := codexState(cfg, h, codexKeys(file, h))
		byState[s] = append(byState[s], h.event)
	}
	var parts []string
	for _, s := range []string{codexUntrusted, codexModified, codexDisabled} {
		if ev := byState[s]; len(ev) > 0 {
			parts = append(parts, s+": "+strings.Join(ev, ", "))
		}
	}
	if len(parts) == 0 {
		return Finding{"codex", OK, fmt.Sprintf("Codex trusts lore's %d hooks (%s)", len(hooks), config), ""}
	}
	fix := codexReview
	if len(byState[codexDisabled]) > 0 {
		fix = "turn them back on in Codex's /hooks (or remove enabled = false from their [hooks.state] in " + config + "); " + fix
	}
	return Finding{"codex", Action, "Codex skips these lore hooks, `codex exec` without a word: " + strings.Join(parts, "; "), fix}
}

// codexState is a hook's state under the first of keys config.toml holds.
func codexState(cfg codexConfig, h codexHook, keys []string) string {
	for _, k := range keys {
		st, ok := cfg.Hooks.State[k]
		switch {
		case !ok:
			continue
		case st.Enabled != nil && !*st.Enabled:
			return codexDisabled
		case st.TrustedHash == "":
			return codexUntrusted
		case st.TrustedHash != codexHash(h):
			return codexModified
		}
		return codexTrusted
	}
	return codexUntrusted
}

// codexKeys are the hook's state keys, for the file's path as given and
// with symbolic links resolved.
func codexKeys(file string, h codexHook) []string {
	var keys []string
	for _, f := range pathForms(file) {
		keys = append(keys, fmt.Sprintf("%s:%s:%d:%d", f, snake(h.event), h.group, h.index))
	}
	return keys
}

// codexHash is the hash Codex keeps as the hook's trusted_hash: "sha256:"
// and the SHA-256 of the JSON of the hook's normalized identity (the event's
// snake_case label, the matcher where the event takes one, the handler with
// its timeout filled in, fields left unset omitted), keys sorted, no spaces.
// Read from codex-rs (hooks/src/engine/discovery.rs, config/src/fingerprint.rs)
// and checked against Codex 0.169's own hooks/list in e2e/codex_trust_test.go.
func codexHash(h codexHook) string {
	handler := map[string]any{"type": "command", "command": h.command, "timeout": codexTimeout(h), "async": h.async}
	if h.statusMessage != nil {
		handler["statusMessage"] = *h.statusMessage
	}
	identity := map[string]any{"event_name": snake(h.event), "hooks": []any{handler}}
	if h.matcher != nil && !noMatcher[h.event] {
		identity["matcher"] = *h.matcher
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // maps encode with their keys sorted
	enc.SetEscapeHTML(false)   // serde_json escapes only quotes, backslashes and control characters
	_ = enc.Encode(identity)   // strings, numbers and booleans only
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// noMatcher are the events whose matcher Codex ignores (and leaves out of
// the hash).
var noMatcher = map[string]bool{"UserPromptSubmit": true, "Stop": true, "Interrupt": true}

// codexTimeout is the timeout Codex hashes: 600 s by default, at least 1;
// SessionEnd and Interrupt 1 s by default, clamped to 1-3 s.
func codexTimeout(h codexHook) uint64 {
	if h.event == "SessionEnd" || h.event == "Interrupt" {
		if h.timeout == nil {
			return 1
		}
		return min(max(*h.timeout, 1), 3)
	}
	if h.timeout == nil {
		return 600
	}
	return max(*h.timeout, 1)
}

// snake is an event's label in Codex's state keys: PreToolUse -> pre_tool_use.
func snake(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexLoreHooks lists lore's handlers in the work tree's .codex/hooks.json.
func codexLoreHooks(root string) ([]codexHook, error) {
	rel := agent.Named("codex").Settings
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var file struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type          string  `json:"type"`
				Command       string  `json:"command"`
				Timeout       *uint64 `json:"timeout"`
				Async         bool    `json:"async"`
				StatusMessage *string `json:"statusMessage"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	var out []codexHook
	for _, ev := range agent.Named("codex").Events() {
		for gi, g := range file.Hooks[ev] {
			for hi, h := range g.Hooks {
				if h.Type == "command" && agent.IsLoreCommand(h.Command) {
					out = append(out, codexHook{ev, gi, hi, g.Matcher, h.Command, h.Timeout, h.Async, h.StatusMessage})
				}
			}
		}
	}
	return out, nil
}
