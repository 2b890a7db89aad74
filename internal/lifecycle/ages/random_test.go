package ages_test

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestRandomHistoriesMatchOracle builds histories from random operations
// (add, edit a body, edit a heading, reorder, remove, duplicate, branch and
// merge, rename the file, days and time zones at random) and compares every
// entry with the git CLI oracle.
func TestRandomHistoriesMatchOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle suite: random histories against the git CLI; make test runs it")
	}
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			r := testrepo.New(t)
			path := "notes/learnings.md"
			var entries []string
			n := 0
			when := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC)
			zones := []string{"+09:00", "-08:00", "Z", "+05:30", "-03:00"}
			date := func() string {
				when = when.Add(time.Duration(rng.Intn(40)) * time.Hour)
				return when.Format("2006-01-02T15:04:05") + zones[rng.Intn(len(zones))]
			}
			mutate := func() {
				switch op := rng.Intn(10); {
				case op < 4 || len(entries) < 2:
					n++
					entries = append(entries, fmt.Sprintf("E%d|Body %d.", n, n))
				case op == 4:
					k := rng.Intn(len(entries))
					entries[k] += " More."
				case op == 5:
					k := rng.Intn(len(entries))
					n++
					entries[k] = fmt.Sprintf("E%d renamed|Body.", n)
				case op == 6:
					rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
				case op == 7:
					k := rng.Intn(len(entries))
					entries = append(entries[:k], entries[k+1:]...)
				case op == 8:
					entries = append(entries, entries[rng.Intn(len(entries))])
				default:
					k := rng.Intn(len(entries))
					entries = append(entries[:k], entries[k+1:]...)
					n++
					entries = append(entries, fmt.Sprintf("E%d|Body.", n))
				}
			}
			for i := 0; i < 18; i++ {
				switch {
				case i == 9: // rename the file
					r.Mkdir("docs")
					r.Git("mv", path, "docs/learnings.md")
					path = "docs/learnings.md"
					r.Commit(date(), "rename")
					continue
				case i%6 == 5: // a branch with its own entries, merged back
					r.Git("checkout", "-q", "-b", fmt.Sprint("b", i))
					saved := append([]string(nil), entries...)
					n++
					entries = append(entries, fmt.Sprintf("B%d|On a branch.", n))
					r.Write(path, learnings(entries...))
					r.Commit(date(), "branch")
					branch := entries
					r.Git("checkout", "-q", "main")
					entries = saved
					r.Write("main.txt", fmt.Sprint(i))
					r.Commit(date(), "main")
					d := date()
					if err := merge(r, d, fmt.Sprint("b", i)); err != nil {
						entries = branch
						r.Write(path, learnings(entries...))
						r.Commit(d, "resolve")
					} else {
						entries = branch
					}
					continue
				}
				mutate()
				r.Write(path, learnings(entries...))
				r.Commit(date(), fmt.Sprint("step ", i))
			}
			today := when.AddDate(0, 0, 3).Format("2006-01-02")
			rep := check(t, r, path, today, false)
			aged := 0
			for _, e := range rep.Entries {
				if e.Age > 0 {
					aged++
				}
			}
			if len(rep.Entries) < 3 || aged == 0 {
				t.Fatalf("a degenerate history: %+v", rep.Entries)
			}
		})
	}
}
