package lint

// SplitLookahead is the rewrite of `lore lint --fix` for other writers
// (lore import): a pattern ending in "(?!.*(A|B))" becomes the pattern
// before it and the unless alternatives A and B; ok is false for any other
// pattern.
func SplitLookahead(pat string) (base string, unless []string, ok bool) {
	return splitLookahead(pat)
}
