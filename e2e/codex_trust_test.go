//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCodexTrust: lore doctor reads Codex's hook trust as Codex itself
// does. For each state of $CODEX_HOME/config.toml (nothing trusted, every
// hook trusted with the hash Codex reports, one hash from an older
// hooks.json), doctor's verdict per event equals the trustStatus of
// Codex's own app-server hooks/list; and `codex exec` without
// --dangerously-bypass-hook-trust runs lore's hooks exactly when doctor
// says they are trusted. A Codex release that hashes hooks another way
// fails here.
func TestCodexTrust(t *testing.T) {
	for _, cb := range clientBins(t, "codex") {
		t.Run(cb.Version, func(t *testing.T) { codexTrust(t, cb) })
	}
}

func codexTrust(t *testing.T, cb clientBin) {
	w := codex.world(t)
	srv := codex.serve(t, script{})
	c := newCodex(t, cb, w, srv, "")
	base, err := os.ReadFile(filepath.Join(c.home, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}

	// Nothing trusted: Codex skips lore's hooks, and doctor says so.
	hooks := c.hooksList(t)
	if len(hooks) != 7 {
		t.Fatalf("Codex lists %d of lore's hooks, want 7: %+v", len(hooks), hooks)
	}
	c.sameVerdicts(t, hooks)
	c.execTrusted("[e2e:x] hello")
	if anyRequest(srv, protocolMarker) {
		t.Errorf("untrusted hooks ran: lore's protocol reached the model")
	}

	// Trusted as the TUI's "Trust all and continue" writes it.
	c.writeTrust(t, base, hooks, "")
	trusted := c.hooksList(t)
	c.sameVerdicts(t, trusted)
	for _, h := range trusted {
		if h.TrustStatus != "trusted" {
			t.Errorf("%s: Codex says %s after trusting its currentHash", h.Key, h.TrustStatus)
		}
	}
	c.execTrusted("[e2e:x] hello")
	if !anyRequest(srv, protocolMarker) {
		t.Errorf("trusted hooks did not run: no protocol reached the model")
	}

	// One hook trusted at an older hash: changed since trusted, for both.
	c.writeTrust(t, base, hooks, "pre_tool_use")
	c.sameVerdicts(t, c.hooksList(t))
}

// codexHookEntry is one hook of app-server's hooks/list.
type codexHookEntry struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
	Source      string `json:"source"`
}

// hooksList asks Codex's app-server (JSON-RPC on stdio) for the project's
// hooks and their trust, as the TUI's /hooks shows them.
func (c *codexClient) hooksList(t *testing.T) []codexHookEntry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), codexTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, "app-server")
	cmd.Dir = c.w.repo
	cmd.Env = append(append([]string(nil), c.w.env...), "CODEX_HOME="+c.home, "RUST_LOG=warn")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	fmt.Fprintf(in, "%s\n%s\n", `{"id":1,"method":"initialize","params":{"clientInfo":{"name":"lore-e2e","version":"0"}}}`, `{"method":"initialized"}`)
	req, _ := json.Marshal(map[string]any{"id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{c.w.repo}}})
	fmt.Fprintf(in, "%s\n", req)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []codexHookEntry `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID != 2 {
			continue
		}
		var project []codexHookEntry
		for _, d := range m.Result.Data {
			for _, h := range d.Hooks {
				if h.Source == "project" {
					project = append(project, h)
				}
			}
		}
		return project
	}
	t.Fatalf("codex app-server gave no hooks/list answer (%v)", sc.Err())
	return nil
}

// writeTrust writes config.toml as Codex does after trusting the hooks:
// each hook's currentHash as its trusted_hash, except the event named by
// older, which gets a hash of other contents.
func (c *codexClient) writeTrust(t *testing.T, base []byte, hooks []codexHookEntry, older string) {
	t.Helper()
	var b strings.Builder
	b.Write(base)
	for _, h := range hooks {
		hash := h.CurrentHash
		if strings.Contains(h.Key, ":"+older+":") {
			hash = "sha256:" + strings.Repeat("0", 64)
		}
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, hash)
	}
	if err := os.WriteFile(filepath.Join(c.home, "config.toml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameVerdicts compares Codex's trustStatus of each hook with lore
// doctor's verdict for its event.
func (c *codexClient) sameVerdicts(t *testing.T, hooks []codexHookEntry) {
	t.Helper()
	doctor := c.doctorVerdicts(t)
	var got, want []string
	for _, h := range hooks {
		event := strings.ToUpper(h.EventName[:1]) + h.EventName[1:]
		want = append(want, event+"="+map[string]string{"trusted": "trusted", "untrusted": "never trusted", "modified": "changed since trusted"}[h.TrustStatus])
		v, ok := doctor[event]
		if !ok {
			v = "trusted"
		}
		got = append(got, event+"="+v)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("lore doctor and Codex %s disagree:\n doctor %v\n  codex %v", c.version, got, want)
	}
}

// doctorVerdicts reads `lore doctor --json`'s codex finding: event -> state
// for the hooks it names (the others are trusted).
func (c *codexClient) doctorVerdicts(t *testing.T) map[string]string {
	t.Helper()
	cmd := exec.Command(c.w.lookPath("lore"), "doctor", "--json")
	cmd.Dir = c.w.repo
	cmd.Env = append(append([]string(nil), c.w.env...), "CODEX_HOME="+c.home)
	out, _ := cmd.Output() // exit 1 when a finding needs action
	var r struct {
		Findings []struct{ Check, Level, Message string } `json:"findings"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("lore doctor --json: %v\n%s", err, out)
	}
	verdicts := map[string]string{}
	const lead = "Codex skips these lore hooks, `codex exec` without a word: "
	for _, f := range r.Findings {
		rest, ok := strings.CutPrefix(f.Message, lead)
		if f.Check != "codex" || !ok {
			continue
		}
		for _, part := range strings.Split(rest, "; ") {
			state, events, _ := strings.Cut(part, ": ")
			for _, e := range strings.Split(events, ", ") {
				verdicts[e] = state
			}
		}
	}
	return verdicts
}

// execTrusted runs `codex exec` as a user would, without bypassing hook
// trust.
func (c *codexClient) execTrusted(prompt string) {
	c.w.client("codex", codexTimeout, []string{"CODEX_HOME=" + c.home, "E2E_STANDIN_KEY=sk-e2e-dummy", "RUST_LOG=warn"},
		c.bin, "exec", "--json", "--skip-git-repo-check", prompt)
}
