package main

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// TestQuietScanArgs: only the Stop hook's exact shape skips kong; every
// other command line keeps kong's parsing, help and errors.
func TestQuietScanArgs(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		paths []string
		ok    bool
	}{
		{[]string{"scan", "--quiet"}, []string{}, true},
		{[]string{"scan", "--quiet", "a.jsonl", "dir"}, []string{"a.jsonl", "dir"}, true},
		{[]string{"scan"}, nil, false},
		{[]string{"scan", "--quiet", "--json"}, nil, false},
		{[]string{"scan", "--quiet", "-"}, nil, false},
		{[]string{"scan", "--quiet", "--", "x"}, nil, false},
		{[]string{"scan", "a", "--quiet"}, nil, false},
		{[]string{"-C", "x", "scan", "--quiet"}, nil, false},
		{[]string{"review", "--quiet"}, nil, false},
	} {
		paths, ok := quietScanArgs(tc.args)
		if ok != tc.ok || !slices.Equal(paths, tc.paths) {
			t.Errorf("quietScanArgs(%q) = %q, %v; want %q, %v", tc.args, paths, ok, tc.paths, tc.ok)
		}
	}
	t.Setenv("COMP_LINE", "lore scan --quiet ")
	if _, ok := quietScanArgs([]string{"scan", "--quiet"}); ok {
		t.Error("a shell completion request took the quiet scan path")
	}
}

// TestAgesArgs: what skips kong reads as kong reads it; every other shape
// goes through kong.
func TestAgesArgs(t *testing.T) {
	for _, args := range [][]string{
		{"ages"}, {"ages", "--json"}, {"ages", "--today", "2026-12-31"},
		{"ages", "--today=2026-12-31", "--json"}, {"ages", "--json", "--today", ""}, {"ages", "--today="},
		{"ages", "notes.md"}, {"ages", ".lore/learnings.md", "--json", "--today", "2026-12-31"},
		{"ages", "--json", "notes.md", "--today=2026-12-31"},
	} {
		got, ok := agesArgs(args)
		cli := CLI{Globals: newGlobals(nil, io.Discard, io.Discard)}
		parser, err := newParser(&cli, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.Parse(args); err != nil || !ok || *got != cli.Ages {
			t.Errorf("%q: agesArgs %+v, %v; kong %+v, %v", args, got, ok, cli.Ages, err)
		}
	}
	for _, args := range [][]string{
		{"ages", "a.md", "b.md"}, {"ages", "--", "a.md"}, {"ages", "-"},
		{"ages", "--today"}, {"ages", "--today", "--json"}, {"ages", "--json", "--json"},
		{"ages", "-C", "x"}, {"ages", "--help"}, {"-C", "x", "ages"}, {"scan", "--json"},
	} {
		if _, ok := agesArgs(args); ok {
			t.Errorf("%q skipped kong", args)
		}
	}
	t.Setenv("COMP_LINE", "lore ages ")
	if _, ok := agesArgs([]string{"ages"}); ok {
		t.Error("a shell completion request skipped kong")
	}
}

// A flag error names the command the words reached and points at its own
// help, as a run's errors do.
func TestParseErrorsNameTheCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"add", "lesson", "X", "--bogus"}, "lore: add: unknown flag --bogus (see lore add --help)\n"},
		{[]string{"match", "--command", "ls"}, "lore: match: missing flags: --tool=TOOL (see lore match --help)\n"},
		{[]string{"--bogus"}, "lore: unknown flag --bogus (see lore --help)\n"},
	} {
		var stderr strings.Builder
		if code := Main(tc.args, strings.NewReader(""), io.Discard, &stderr); code != exitError || stderr.String() != tc.want {
			t.Errorf("lore %q: exit %d, stderr %q, want %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
