//go:build e2e

package e2e

import "regexp"

// A scenario's script: each prompt carries a tag "[e2e:NAME]", and the
// model's answer is step N of script NAME, N being the number of assistant
// turns since the latest tagged prompt. A sub-agent's conversation starts
// with its own tagged task, so it follows its own script. Past the end of
// a script the model says "done".
type script map[string][]reply

var tagRE = regexp.MustCompile(`\[e2e:([a-z0-9-]+)\]`)

// step picks the reply for a conversation given as (role, text) pairs.
func (s script) step(msgs []msg) (tag string, n int, r reply) {
	last := -1
	for i, m := range msgs {
		if m.role == "user" {
			if t := tagRE.FindAllStringSubmatch(m.text, -1); t != nil {
				last, tag = i, t[len(t)-1][1]
			}
		}
	}
	if last < 0 {
		return "", 0, say("done")
	}
	for _, m := range msgs[last+1:] {
		if m.role == "assistant" || m.role == "model" {
			n++
		}
	}
	steps := s[tag]
	if n < len(steps) {
		return tag, n, steps[n]
	}
	return tag, n, say("done")
}

type msg struct{ role, text string }
