package evidence

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

const (
	pytestID = "01JCZ0000000000000000PYTST"
	npmID    = "01JCZ00000000000000000NPMT"
	dockerID = "01JCZ0000000000000000DCKER"
)

// lesson is a valid active lesson on Bash commands matching re.
func lesson(t *testing.T, id, status, re string) *markdown.Item {
	t.Helper()
	src := fmt.Sprintf("---\nid: %s\nkind: lesson\ntitle: Lesson on %s\nstatus: %s\npriority: high\ncreated: 2026-01-01\ntriggers:\n  tools: [Bash]\n  commands: ['%s']\n---\n## Mistake\nRan it wrong.\n\n## Fix\nRun it right.\n", id, re, status, re)
	it, err := markdown.Parse(".lore/lessons/"+strings.ToLower(id[22:])+".md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		t.Fatal(errs)
	}
	return it
}

var (
	day0    = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	promote = day0.AddDate(0, 0, 10)
	now     = day0.AddDate(0, 0, 20)
)

// calls makes n Bash calls of cmd in session sess started at start, the
// first failed of them failing with how.
func calls(sess string, start time.Time, cmd string, n, failed int, how string) []scan.Call {
	var out []scan.Call
	for i := range n {
		c := scan.Call{Agent: "claude", Session: sess, File: sess + ".jsonl", Line: 10 + i, Started: start, Tool: "Bash", Command: cmd}
		if i < failed {
			c.Failed = how
		}
		out = append(out, c)
	}
	return out
}

func statsOf(t *testing.T, in Input) (Report, map[string]ItemStats) {
	t.Helper()
	if in.Config.Stats.MinCalls == 0 {
		in.Config = config.Default()
	}
	if in.Now.IsZero() {
		in.Now = now
	}
	r, err := Stats(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]ItemStats{}
	for _, s := range r.Items {
		by[s.ID] = s
	}
	return r, by
}

// A lesson whose mistake (a hanging pytest: timeouts) stops after it
// became active is effective; one whose failures go on is no-effect; one
// with too few calls after is unmeasured.
func TestStatsBeforeAndAfterActivation(t *testing.T) {
	items := []*markdown.Item{lesson(t, pytestID, "active", `^pytest\b`), lesson(t, npmID, "active", `^npm test`), lesson(t, dockerID, "active", `^docker build`)}
	var cs []scan.Call
	cs = append(cs, calls("s1", day0, "pytest tests", 4, 3, "timeout")...)
	cs = append(cs, calls("s2", promote.Add(time.Hour), "pytest -x tests", 4, 0, "")...)
	cs = append(cs, calls("s1", day0, "npm test", 3, 2, "exit")...)
	cs = append(cs, calls("s2", promote.Add(time.Hour), "npm test", 3, 2, "exit")...)
	cs = append(cs, calls("s1", day0, "docker build .", 5, 5, "error")...)
	cs = append(cs, calls("s2", promote.Add(time.Hour), "docker build .", 2, 0, "")...)
	act := map[string]time.Time{pytestID: promote, npmID: promote, dockerID: promote}
	r, by := statsOf(t, Input{Items: items, Calls: cs, Activated: act})
	if r.Calls != len(cs) {
		t.Errorf("calls %d, want %d", r.Calls, len(cs))
	}
	p := by[pytestID]
	if p.Verdict != Effective || *p.Before != (Side{4, 3}) || *p.After != (Side{4, 0}) || p.Matches != 8 {
		t.Errorf("pytest: %+v before %+v after %+v", p, p.Before, p.After)
	}
	if v := by[npmID].Verdict; v != NoEffect {
		t.Errorf("npm: %s (%s)", v, by[npmID].Why)
	}
	if v := by[dockerID]; v.Verdict != Unmeasured || !strings.Contains(v.Why, "2 after") {
		t.Errorf("docker: %s (%s)", v.Verdict, v.Why)
	}
	if r.Spawned != nil || p.Fired != nil || p.Held != nil || p.LastFired != nil {
		t.Errorf("with no ledger the ledger's figures must be unmeasured: %+v %+v", r, p)
	}
	data, _ := json.Marshal(p)
	for _, want := range []string{`"fired":null`, `"held":null`, `"before":{"calls":4,"failures":3}`, `"activated":"2026-03-11"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %s: %s", want, data)
		}
	}
}

func entry(ctx, call string, at time.Time) ledger.Entry {
	return ledger.Entry{Time: at, Agent: "claude", Event: ledger.Pre, Context: ctx, Call: call, Tool: "Bash"}
}

// After a hold, the context's next call decides: the same call is
// repeated, another changed. Ids listed as injected and held fire once.
func TestStatsLedgerHoldsAndDeliveries(t *testing.T) {
	items := []*markdown.Item{lesson(t, pytestID, "active", `^pytest\b`), lesson(t, npmID, "active", `^npm test`)}
	at := promote.Add(time.Hour)
	held := entry("c1", "aaaa", at)
	held.Held, held.Injected = []string{pytestID}, []string{pytestID}
	changed := entry("c1", "bbbb", at.Add(time.Minute))
	held2 := entry("c2", "aaaa", at.Add(2*time.Minute))
	held2.Held = []string{pytestID}
	other := entry("c3", "cccc", at.Add(3*time.Minute)) // another context's call does not decide c2
	repeated := entry("c2", "aaaa", at.Add(4*time.Minute))
	held3 := entry("c4", "aaaa", at.Add(5*time.Minute))
	held3.Held = []string{pytestID}
	changed3 := entry("c4", "dddd", at.Add(6*time.Minute))
	injected := entry("c3", "eeee", at.Add(7*time.Minute))
	injected.Injected, injected.Dropped = []string{npmID}, []string{pytestID}
	ledgerEntries := []ledger.Entry{held, changed, held2, other, repeated, held3, changed3, injected}
	r, by := statsOf(t, Input{Items: items, Ledger: ledgerEntries, Activated: map[string]time.Time{pytestID: promote, npmID: promote}})
	p := by[pytestID]
	if *p.Fired != 3 || *p.Held != (Holds{Total: 3, Changed: 2, Repeated: 1}) || *p.Dropped != 1 || *p.Contexts != 3 {
		t.Errorf("pytest: fired %d held %+v dropped %d contexts %d", *p.Fired, *p.Held, *p.Dropped, *p.Contexts)
	}
	if p.Verdict != Effective || *p.LastFired != held3.Time.Format(time.RFC3339) {
		t.Errorf("pytest: %s (%s), last %s", p.Verdict, p.Why, *p.LastFired)
	}
	if n := by[npmID]; *n.Fired != 1 || *n.Contexts != 1 || n.Held.Total != 0 {
		t.Errorf("npm: %+v", n)
	}
	if *r.Spawned != len(ledgerEntries) || *r.Contexts != 4 || r.NoLore != nil {
		t.Errorf("spawned %v contexts %v noLore %v (no transcript calls: unmeasured)", *r.Spawned, *r.Contexts, r.NoLore)
	}
	// Since drops what came before.
	_, by = statsOf(t, Input{Items: items, Ledger: ledgerEntries, Since: held3.Time})
	if p := by[pytestID]; *p.Fired != 1 || p.Held.Changed != 1 || p.Held.Repeated != 0 {
		t.Errorf("since: %+v %+v", p, p.Held)
	}
}

// Held and repeated more than changed is noisy; so is firing in more than
// a quarter of the contexts once the ledger saw enough of them.
func TestStatsNoisy(t *testing.T) {
	items := []*markdown.Item{lesson(t, pytestID, "active", `^pytest\b`), lesson(t, npmID, "active", `^npm test`)}
	at := promote.Add(time.Hour)
	var es []ledger.Entry
	for i := range 12 {
		e := entry(fmt.Sprintf("c%d", i), "x", at.Add(time.Duration(i)*time.Minute))
		if i < 4 {
			e.Injected = []string{npmID}
		}
		es = append(es, e)
	}
	h := entry("c0", "same", at.Add(time.Hour))
	h.Held = []string{pytestID}
	es = append(es, h, entry("c0", "same", at.Add(time.Hour+time.Second)))
	_, by := statsOf(t, Input{Items: items, Ledger: es})
	if v := by[npmID]; v.Verdict != Noisy || !strings.Contains(v.Why, "4 of the 12") {
		t.Errorf("npm: %s (%s)", v.Verdict, v.Why)
	}
	if v := by[pytestID]; v.Verdict != Noisy || !strings.Contains(v.Why, "same call again once") {
		t.Errorf("pytest: %s (%s)", v.Verdict, v.Why)
	}
	// With fewer contexts than 4 x stats.minCalls a quarter says nothing.
	_, by = statsOf(t, Input{Items: items, Ledger: es[:3]})
	if v := by[npmID]; v.Verdict == Noisy {
		t.Errorf("noisy from 3 contexts: %s", v.Why)
	}
	// An item without triggers comes in every context by design.
	always, err := markdown.Parse(".lore/lessons/always.md", []byte("---\nid: "+npmID+"\nkind: lesson\ntitle: Use python -m pip\nstatus: active\n---\n## Fix\nRun python -m pip.\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, by = statsOf(t, Input{Items: []*markdown.Item{always}, Ledger: es})
	if v := by[npmID]; v.Verdict == Noisy || v.Delivery != compile.SessionStart {
		t.Errorf("an always-on item: %s (%s), delivery %s", v.Verdict, v.Why, v.Delivery)
	}
}

// Stale comes first; an item active 30+ days that nothing matched is
// never-fired; a draft counts its calls before and is unmeasured.
func TestStatsStaleNeverFiredAndDrafts(t *testing.T) {
	items := []*markdown.Item{lesson(t, pytestID, "active", `^pytest\b`), lesson(t, npmID, "active", `^npm test`), lesson(t, dockerID, "draft", `^docker build`)}
	old := now.AddDate(0, 0, -45)
	es := []ledger.Entry{entry("c0", "x", now.AddDate(0, 0, -40)), entry("c1", "x", now.Add(-time.Hour))}
	cs := calls("s1", now.Add(-time.Hour), "docker build .", 2, 1, "error")
	r, by := statsOf(t, Input{Items: items, Ledger: es, Calls: cs, Activated: map[string]time.Time{pytestID: old, npmID: old},
		Stale: map[string]string{npmID: "paths: src/old/** matches no file in HEAD"}})
	if v := by[pytestID]; v.Verdict != NeverFired || !strings.Contains(v.Why, "40 days") || *v.Fired != 0 {
		t.Errorf("pytest: %s (%s)", v.Verdict, v.Why)
	}
	if v := by[npmID]; v.Verdict != Stale {
		t.Errorf("npm: %s", v.Verdict)
	}
	d := by[dockerID]
	if d.Verdict != Unmeasured || d.After != nil || *d.Before != (Side{2, 1}) || d.Activated != nil {
		t.Errorf("draft: %+v", d)
	}
	if r.Deliveries["before-call"] != 2 || len(r.Dead) != 0 {
		t.Errorf("deliveries %v dead %v", r.Deliveries, r.Dead)
	}
	if *r.NoLore != 0 {
		t.Errorf("2 ledger calls against 2 transcript calls: noLore %v", *r.NoLore)
	}
	if r.Items[0].ID != npmID || r.Items[1].ID != pytestID {
		t.Errorf("order: stale, never-fired, then the rest: %s %s", r.Items[0].ID, r.Items[1].ID)
	}
	// Records that began an hour ago say nothing of a month.
	_, by = statsOf(t, Input{Items: items, Ledger: es[1:], Calls: cs, Activated: map[string]time.Time{pytestID: old, npmID: old}})
	if v := by[pytestID]; v.Verdict == NeverFired {
		t.Errorf("never-fired from an hour of records: %s", v.Why)
	}
	r, _ = statsOf(t, Input{Items: items, Ledger: es[1:], Calls: cs})
	if *r.NoLore != 0.5 {
		t.Errorf("1 ledger call against 2 transcript calls: noLore %v", *r.NoLore)
	}
}

// Replay says what each item would fire on, with examples that point at
// the transcript line.
func TestReplay(t *testing.T) {
	items := []*markdown.Item{lesson(t, pytestID, "draft", `^pytest\b`), lesson(t, npmID, "active", `^npm test`)}
	var cs []scan.Call
	cs = append(cs, calls("s1", day0, "pytest tests", 4, 1, "timeout")...)
	cs = append(cs, calls("s2", day0, "pytest -k x", 1, 0, "")...)
	cs = append(cs, calls("s2", day0, "go test ./...", 3, 0, "")...)
	r, err := Replay(items, config.Default(), cs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Calls != 8 || r.Sessions != 2 {
		t.Errorf("calls %d sessions %d", r.Calls, r.Sessions)
	}
	p, n := r.Items[0], r.Items[1]
	if p.Fires != 5 || p.Failed != 1 || p.Contexts != 2 || len(p.Examples) != maxExamples {
		t.Errorf("pytest: %+v", p)
	}
	if e := p.Examples[0]; e.Session != "s1" || e.Line != 10 || e.Input != "pytest tests" || e.Failed != "timeout" {
		t.Errorf("example: %+v", e)
	}
	if n.Fires != 0 || n.Contexts != 0 || len(n.Examples) != 0 {
		t.Errorf("npm: %+v", n)
	}
}

// An org item whose id the project's item has (shadowed: it never
// reaches the agent) is not credited with the project item's firings.
func TestStatsCreditsTheItemThatFired(t *testing.T) {
	org := lesson(t, pytestID, "active", `^pytest\b`)
	org.Path = "acme:lessons/pytst.md"
	fired := entry("c1", "aaaa", promote.Add(time.Hour))
	fired.Injected = []string{pytestID}
	r, _ := statsOf(t, Input{Items: []*markdown.Item{lesson(t, pytestID, "active", `^pytest\b`)},
		Stores: []compile.Store{{Scope: compile.Org, Name: "acme", Items: []*markdown.Item{org}}}, Ledger: []ledger.Entry{fired}})
	if len(r.Items) != 1 || r.Items[0].Origin != "project" || *r.Items[0].Fired != 1 {
		t.Errorf("items %+v: want the project's lesson alone, fired once", r.Items)
	}
}
