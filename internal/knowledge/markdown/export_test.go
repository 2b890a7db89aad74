package markdown

// SameAsYAML and FrontmatterOf serve the tests of package markdown_test,
// which may import internal/synthetic (it imports this package).
var (
	SameAsYAML    = sameAsYAML
	FrontmatterOf = frontmatterOf
	QuickYAML     = quickYAML
)
