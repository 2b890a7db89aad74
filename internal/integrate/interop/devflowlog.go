package interop

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// devflowLogs are the names of Devflow's observation logs: one JSON
// observation a line (learning-log.jsonl before Devflow 2, then
// decisions-log.jsonl and the anchored decisions-ledger.jsonl).
var devflowLogs = map[string]bool{"learning-log.jsonl": true, "decisions-log.jsonl": true, "decisions-ledger.jsonl": true}

// devflowObs is the part of a Devflow observation an import reads.
type devflowObs struct {
	ID              string `json:"id"`
	Type            string `json:"type"`
	Pattern         string `json:"pattern"`
	Details         string `json:"details"`
	Status          string `json:"status"`
	AnchorID        string `json:"anchor_id"`
	DecisionsStatus string `json:"decisions_status"`
	ArtifactPath    string `json:"artifact_path"`
}

// devflowAnchorRe finds the ADR-/PF- entry an observation was promoted to
// in an artifact path ("…/decisions.md#ADR-003").
var devflowAnchorRe = lazyre.New(`#((?:ADR|PF)-\d+)$`)

// anchor is the ADR-/PF- entry the observation became, if any.
func (o devflowObs) anchor() string {
	if o.AnchorID != "" {
		return o.AnchorID
	}
	if m := devflowAnchorRe().FindStringSubmatch(o.ArtifactPath); m != nil {
		return m[1]
	}
	return ""
}

// ReadDevflowLog plans Devflow's observations not yet promoted to an
// ADR-/PF- entry: a decision or pitfall observation becomes a numbered
// decision or pitfall as Devflow's own formatter would render it, a
// workflow or procedural one a lesson. An observation that became an
// entry is carried by decisions.md or pitfalls.md (the file Devflow
// renders from it), so it is counted here, not imported twice; a retired
// or deprecated one is not imported. Lines that are not observations are
// skipped and counted.
func (p *Plan) ReadDevflowLog(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	var promoted []string
	bad, firstBad := 0, 0
	for i, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var o devflowObs
		if err := json.Unmarshal([]byte(l), &o); err != nil || o.ID == "" || strings.TrimSpace(o.Pattern) == "" {
			if bad++; bad == 1 {
				firstBad = i + 1
			}
			continue
		}
		from := fmt.Sprintf("%s:%d", rel, i+1)
		switch a := o.anchor(); {
		case strings.EqualFold(o.DecisionsStatus, "retired"):
			p.note(from, o.Pattern, "%s was retired in Devflow: not imported", a)
		case strings.EqualFold(o.Status, "deprecated"):
			p.note(from, o.Pattern, "deprecated in Devflow: not imported")
		case a != "":
			promoted = append(promoted, a)
		default:
			p.devflowObservation(rel, from, o)
		}
	}
	if len(promoted) > 0 {
		p.note(rel, "", "%d observations are entries of decisions.md or pitfalls.md (%s … %s): imported from those files, not from here",
			len(promoted), promoted[0], promoted[len(promoted)-1])
	}
	if bad > 0 {
		p.note(fmt.Sprintf("%s:%d", rel, firstBad), "", "%d line(s) are not Devflow observations (JSON with an id and a pattern): skipped", bad)
	}
}

// devflowObservation plans one observation still under watch in Devflow.
func (p *Plan) devflowObservation(rel, from string, o devflowObs) {
	key := rel + "#" + o.ID
	switch o.Type {
	case "decision", "pitfall":
		kind := map[string]string{"decision": "ADR", "pitfall": "PF"}[o.Type]
		d := p.devflowDraft(from, kind, o.Pattern, devflowDetails(o))
		d.Key = key
		p.Drafts = append(p.Drafts, d)
	case "workflow", "procedural":
		title := cutTitle(oneLine(o.Pattern))
		body := o.Details
		if strings.TrimSpace(body) == "" {
			body = o.Pattern
		}
		p.Drafts = append(p.Drafts, Draft{Key: key, From: from, Spec: markdown.Spec{Kind: markdown.KindLesson, Title: title, Status: "draft",
			Body: markdown.SectionsBody([][2]string{{"Injection", body}}, false)}})
	default:
		p.note(from, o.Pattern, "observation type %q has no lore kind: not imported", o.Type)
	}
}

// devflowDetailRe finds one "key: value" of an observation's details, as
// Devflow's formatter does.
var devflowDetailRe = sync.OnceValue(func() map[string]*regexp.Regexp {
	res := map[string]*regexp.Regexp{}
	for _, k := range []string{"context", "decision", "rationale", "area", "issue", "impact", "resolution"} {
		res[k] = regexp.MustCompile(`(?i)` + k + `:\s*([^;]+)`)
	}
	return res
})

// devflowDetails reads an observation's "key: value; key: value" details
// as Devflow's formatter does (decisions-format.cjs): a decision's
// context (else all the details), decision (else the pattern) and
// rationale; a pitfall's area and issue (else all the details), impact
// and resolution.
func devflowDetails(o devflowObs) map[string]string {
	get := func(key, fallback string) string {
		m := devflowDetailRe()[key].FindStringSubmatch(o.Details)
		if m == nil {
			return fallback
		}
		return strings.TrimSpace(m[1])
	}
	if o.Type == "pitfall" {
		return map[string]string{"area": get("area", o.Details), "issue": get("issue", o.Details),
			"impact": get("impact", ""), "resolution": get("resolution", ""), "status": "Active"}
	}
	return map[string]string{"context": get("context", o.Details), "decision": get("decision", o.Pattern),
		"consequences": get("rationale", ""), "status": "Accepted"}
}
