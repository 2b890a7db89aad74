package redact

// byteSet is a set of bytes: the character classes the detectors test
// byte by byte, one lookup each.
type byteSet [256]bool

func setOf(chars ...string) *byteSet {
	var s byteSet
	for _, cs := range chars {
		for i := 0; i < len(cs); i++ {
			s[cs[i]] = true
		}
	}
	return &s
}

const (
	lowerLetters  = "abcdefghijklmnopqrstuvwxyz"
	upperLetters  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits        = "0123456789"
	alphanumerics = lowerLetters + upperLetters + digits
)

var (
	tokenBytes  = setOf(alphanumerics, "+/_-=.") // what a random-looking token is made of
	secretBytes = setOf(alphanumerics, "_-+/=")  // what a secret a rule cut short may go on with
	base64Bytes = setOf(alphanumerics, "+/=")
	hexBytes    = setOf(digits, "abcdefABCDEF")
	letterBytes = setOf(lowerLetters, upperLetters)
)

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// classes counts a token's small letters, capitals, digits and other
// bytes.
type classes struct{ lower, upper, digit, other int }

func countClasses(tok string) classes {
	var n classes
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case isLower(c):
			n.lower++
		case isUpper(c):
			n.upper++
		case c >= '0' && c <= '9':
			n.digit++
		default:
			n.other++
		}
	}
	return n
}

// kinds is how many of small letters, capitals and digits occur.
func (n classes) kinds() int {
	return boolInt(n.lower > 0) + boolInt(n.upper > 0) + boolInt(n.digit > 0)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
