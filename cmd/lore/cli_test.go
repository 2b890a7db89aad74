package main

import (
	"slices"
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
