package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestReadmeCommands parses every `lore ...` command in the README's shell
// code blocks with the real kong parser: an unknown flag, a wrong number of
// arguments or a flag without its value fails, so the documentation cannot
// drift from the CLI (docs/design.md, Commands: every example works when
// pasted).
func TestReadmeCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := readmeLoreCommands(t, string(data))
	if len(lines) < 40 {
		t.Fatalf("found only %d lore commands in the README's code blocks", len(lines))
	}
	for _, args := range lines {
		if err := parseOnly(args); err != nil {
			t.Errorf("README: lore %s: %v", strings.Join(args, " "), err)
		}
	}
}

// TestParseOnlyFails: the check above catches what it claims to.
func TestParseOnlyFails(t *testing.T) {
	for _, args := range [][]string{
		{"add", "lesson", "T", "--nope"},               // unknown flag
		{"show", "a", "b"},                             // one argument too many
		{"match", "--tool"},                            // a flag without its value
		{"match", "--command", "ls"},                   // a required flag missing
		{"add", "lesson", "T", "--unless", "--no-hdr"}, // a value read as a flag
	} {
		if err := parseOnly(args); err == nil {
			t.Errorf("lore %s parsed", strings.Join(args, " "))
		}
	}
	if err := parseOnly([]string{"add", "lesson", "T", "--unless=--no-header", "--command", "x{1,3}"}); err != nil {
		t.Errorf("--unless=--no-header: %v", err)
	}
}

// parseOnly parses args as lore would, without running the command.
func parseOnly(args []string) (err error) {
	var out bytes.Buffer
	cli := CLI{Globals: Globals{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(exitSignal); !ok {
				panic(r)
			}
			err = nil // --help or --version: parsed, then exited
		}
	}()
	p, err := newParser(&cli, &out, &out)
	if err != nil {
		return err
	}
	_, err = p.Parse(args)
	return err
}

// readmeLoreCommands returns the arguments of every simple command named
// lore in the README's sh/bash code blocks and the "$ " lines of its plain
// ones, parsed as a shell would
// (quotes, line continuations, comments). A parameter expansion or command
// substitution becomes a placeholder word.
func readmeLoreCommands(t *testing.T, md string) [][]string {
	var out [][]string
	var block strings.Builder
	in, lang := false, ""
	for _, line := range strings.SplitAfter(md, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			if in && (lang == "sh" || lang == "bash" || lang == "") {
				out = append(out, loreCalls(t, block.String())...)
			}
			in, lang = !in, strings.TrimPrefix(trim, "```")
			block.Reset()
			continue
		}
		switch {
		case !in:
		case lang != "":
			block.WriteString(line)
		case strings.HasPrefix(line, "$ "):
			// A plain block is a terminal session: its commands follow "$ ".
			block.WriteString(strings.TrimPrefix(line, "$ "))
		case strings.HasPrefix(line, "lore "):
			block.WriteString(line)
		}
	}
	return out
}

func loreCalls(t *testing.T, src string) [][]string {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "README.md")
	if err != nil {
		t.Errorf("README code block does not parse as shell: %v\n%s", err, src)
		return nil
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || wordText(c.Args[0]) != "lore" {
			return true
		}
		var args []string
		for _, w := range c.Args[1:] {
			args = append(args, wordText(w))
		}
		out = append(out, args)
		return true
	})
	return out
}

// wordText is a word's value after quote removal; expansions are "X".
func wordText(w *syntax.Word) string {
	var b strings.Builder
	var parts func(ps []syntax.WordPart)
	parts = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(unescape(p.Value))
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts)
			default:
				b.WriteString("X")
			}
		}
	}
	parts(w.Parts)
	return b.String()
}

// unescape removes the backslashes of an unquoted literal (\$ is $).
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
