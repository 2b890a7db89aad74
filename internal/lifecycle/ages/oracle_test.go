package ages_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/testrepo"
)

// merge merges branch with a fixed date; conflicts are left for the caller
// (resolve, then r.Commit).
func merge(r *testrepo.Repo, date, branch string) error {
	_, err := r.Try(testrepo.Dated(date), "merge", "-q", "--no-ff", "-m", "merge "+branch, branch)
	return err
}

// learnings renders a learnings file: a 10-line preamble, then one H2 per
// title with a body.
func learnings(entries ...string) string {
	var b strings.Builder
	b.WriteString("# Learnings\n\nStaging file.\n\n\n\n\n\n\n\n")
	for _, e := range entries {
		title, body, _ := strings.Cut(e, "|")
		if body == "" {
			body = "About " + title + "."
		}
		fmt.Fprintf(&b, "## %s\n%s\n\n", title, body)
	}
	return b.String()
}

// oracle computes docs/design.md, Ages and staleness, with the git CLI only.
type oracle struct {
	r       *testrepo.Repo
	parents map[string][]string
	dates   map[string]string
	v       map[string]map[string]bool
}

func newOracle(r *testrepo.Repo) *oracle {
	o := &oracle{r: r, parents: map[string][]string{}, dates: map[string]string{}, v: map[string]map[string]bool{}}
	for _, l := range strings.Split(strings.TrimSpace(r.Git("rev-list", "--parents", "HEAD")), "\n") {
		f := strings.Fields(l)
		o.parents[f[0]] = f[1:]
	}
	for _, l := range strings.Split(strings.TrimSpace(r.Git("log", "--date=short", "--format=%H %ad", "HEAD")), "\n") {
		f := strings.Fields(l)
		o.dates[f[0]] = f[1]
	}
	return o
}

func (o *oracle) V(c, path string) map[string]bool {
	k := c + ":" + path
	if v, ok := o.v[k]; ok {
		return v
	}
	out, err := o.r.Try(nil, "show", k)
	v := map[string]bool{}
	if err == nil {
		v = markdown.HeadingTexts([]byte(out))
	}
	o.v[k] = v
	return v
}

// pathIn follows a whole-file rename from c to its parent p as git's own
// rename detection (-M, 50%) reports it.
func (o *oracle) pathIn(c, p, path string) string {
	if _, err := o.r.Try(nil, "cat-file", "-e", p+":"+path); err == nil {
		return path
	}
	if _, err := o.r.Try(nil, "cat-file", "-e", c+":"+path); err != nil {
		return path
	}
	for _, l := range strings.Split(o.r.Git("diff", "-M", "--name-status", p, c), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 3 && strings.HasPrefix(f[0], "R") && f[2] == path {
			return f[1]
		}
	}
	return path
}

func (o *oracle) head() string { return strings.TrimSpace(o.r.Git("rev-parse", "HEAD")) }

func (o *oracle) origin(h, path string) string {
	c := o.head()
outer:
	for {
		for _, p := range o.parents[c] {
			pp := o.pathIn(c, p, path)
			if o.V(p, pp)[h] {
				c, path = p, pp
				continue outer
			}
		}
		return c
	}
}

func (o *oracle) last(path string) string {
	c := o.head()
	for len(o.parents[c]) > 0 {
		p := o.parents[c][0]
		pp := o.pathIn(c, p, path)
		vc, vp := o.V(c, path), o.V(p, pp)
		for t := range vp {
			if !vc[t] {
				return c
			}
		}
		c, path = p, pp
	}
	return ""
}

func (o *oracle) activeDays(since, today string) int {
	set := map[string]bool{}
	for _, d := range o.dates {
		if d > since && d <= today {
			set[d] = true
		}
	}
	return len(set)
}

// check compares lore's ages with the oracle entry by entry, and with git
// blame when blame is true.
func check(t *testing.T, r *testrepo.Repo, rel, today string, blame bool) *ages.Report {
	t.Helper()
	s := r.Store()
	rep, err := ages.Load(s, rel, today)
	if err != nil {
		t.Fatal(err)
	}
	o := newOracle(r)
	head := o.head()
	committed := o.V(head, rel)
	for _, e := range rep.Entries {
		if !committed[e.Title] {
			if e.Commit != "" || e.Age != 0 || e.Added != today {
				t.Errorf("%q: uncommitted entry got %+v", e.Title, e)
			}
			continue
		}
		want := o.origin(e.Title, rel)
		if e.Commit != want || e.Added != o.dates[want] || e.Age != o.activeDays(o.dates[want], today) {
			t.Errorf("%q: got commit %.7s added %s age %d; oracle %.7s %s %d", e.Title, e.Commit, e.Added, e.Age,
				want, o.dates[want], o.activeDays(o.dates[want], today))
		}
		if blame {
			out := r.Git("blame", "--porcelain", "-L", fmt.Sprintf("%d,%d", e.Line, e.Line), "HEAD", "--", rel)
			if b := strings.Fields(out)[0]; b != e.Commit {
				t.Errorf("%q: git blame says %.7s, lore %.7s", e.Title, b, e.Commit)
			}
		}
	}
	want := o.last(rel)
	switch {
	case want == "" && rep.LastConsolidation != nil:
		t.Errorf("last consolidation: got %+v, oracle none", rep.LastConsolidation)
	case want != "" && (rep.LastConsolidation == nil || rep.LastConsolidation.Commit != want ||
		rep.LastConsolidation.ActiveDays != o.activeDays(o.dates[want], today)):
		t.Errorf("last consolidation: got %+v, oracle %.7s %d", rep.LastConsolidation, want, o.activeDays(o.dates[want], today))
	}
	return rep
}

func titles(rep *ages.Report) []string {
	var out []string
	for _, e := range rep.Entries {
		out = append(out, fmt.Sprintf("%s=%d", e.Title, e.Age))
	}
	sort.Strings(out)
	return out
}
