package markdown

// These serve the tests of package markdown_test, which may import
// internal/synthetic (it imports this package).
var (
	SameAsYAML    = sameAsYAML
	FrontmatterOf = frontmatterOf
	QuickYAML     = quickYAML
	QuickSections = quickSections
)

// FullSections are the sections goldmark's full parser finds.
func FullSections(data []byte, from int) []Section { return sectionsOf(mdParser(), data, from) }
