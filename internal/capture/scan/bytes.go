package scan

// byteSet is a set of bytes: a character class tested byte by byte, one
// lookup each.
type byteSet [256]bool

func setOf(chars string) *byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		s[chars[i]] = true
	}
	return &s
}

const alphanumerics = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var (
	wordBytes  = setOf(alphanumerics + "_-/") // a phrase's word boundaries: "deleted" is not in fix-deleted-rows or a/deleted/b
	nameBytes  = setOf(alphanumerics + "-")   // kept in a Claude Code project folder's name
	spaceBytes = setOf(" \n\t\r")             // JSON white space
)
