package redact

import "strings"

// A keyword occurs in much ordinary text (key, token, api, s., jwt's ey
// in they, curl named in prose), and those rules' regexps then cost most
// of a cold build's secret check (docs/design.md, Incremental build).
// tailAllows adds, for those rules,
// a byte check that each of their matches passes right after its
// keyword: when no occurrence of a keyword passes it, the rule cannot
// match and its regexp is not run. Each check is a necessary condition
// read off the rule's regexp; a byte of a multi-byte character always
// passes (case folding lets some of them match an ASCII class), so the
// check errs only towards running the regexp.
var tails = map[string]func(lower string, end int, keyword string) bool{
	// `[\w.-]{0,50}?(?:access|...|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})`:
	// past the keyword, after word characters, blanks, dots, dashes and
	// quotes, the next byte is an operator, and after it, past operators,
	// quotes and blanks, a value of ten or more bytes begins.
	"generic-api-key": func(lower string, end int, _ string) bool {
		i := end
		for i < len(lower) && (valueByte(lower[i]) && lower[i] != '=' && lower[i] != '+' && lower[i] != '/' || strings.IndexByte(" \t\n\r\f'\"", lower[i]) >= 0) {
			i++
		}
		if i == len(lower) || strings.IndexByte("=>:|,?", lower[i]) < 0 {
			return false
		}
		return longValue(lower, i+1)
	},
	// `\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))`: the keyword is
	// followed by 24 letters or digits (s.), or 90 word bytes or dashes.
	"vault-service-token": func(lower string, end int, keyword string) bool {
		n := 24
		if keyword == "hvs." {
			n = 90
		}
		if end+n > len(lower) {
			return false
		}
		for _, c := range []byte(lower[end : end+n]) {
			if !wordByte(c) && c != '-' && c < 0x80 {
				return false
			}
		}
		return true
	},
	// `\b(ey[a-zA-Z0-9]{17,}\.ey...`: the keyword is followed by a run
	// of 17 or more letters and digits, a dot and ey.
	"jwt": func(lower string, end int, _ string) bool {
		i := end
		for i < len(lower) && (isLower(lower[i]) || lower[i] >= '0' && lower[i] <= '9') {
			i++
		}
		return i-end >= 17 && strings.HasPrefix(lower[i:], ".ey")
	},
	// `\bcurl\b...[ \t\n\r](?:-H|--header)` (-u, --user): a blank and
	// the flag come after the keyword.
	"curl-auth-header": func(lower string, end int, _ string) bool {
		return flagAfter(lower[end:], "-h") || flagAfter(lower[end:], "--header")
	},
	"curl-auth-user": func(lower string, end int, _ string) bool {
		return flagAfter(lower[end:], "-u") || flagAfter(lower[end:], "--user")
	},
}

// flagAfter says the flag occurs in lower after a blank or a line break.
func flagAfter(lower, flag string) bool {
	for off := 1; off < len(lower); {
		i := strings.Index(lower[off:], flag)
		if i < 0 {
			return false
		}
		if strings.IndexByte(" \t\n\r", lower[off+i-1]) >= 0 {
			return true
		}
		off += i + 1
	}
	return false
}

// longValue says a run of ten value bytes occurs in lower from i: past
// operators, quotes and blanks (= among them), up to the end of the run
// of value bytes that follows them; = is both, so a value of = signs
// before a blank counts too.
func longValue(lower string, i int) bool {
	end := i
	for end < len(lower) && strings.IndexByte(operatorBytes, lower[end]) >= 0 {
		end++
	}
	for end < len(lower) && valueByte(lower[end]) {
		end++
	}
	run := 0
	for _, c := range []byte(lower[i:end]) {
		if !valueByte(c) {
			run = 0
		} else if run++; run >= 10 {
			return true
		}
	}
	return false
}

// operatorBytes are what generic-api-key allows between its keyword's
// run and the value: operators, quotes and blanks (regexp's \s).
const operatorBytes = "=>:|?,`'\"\t\n\f\r "

// valueByte says c may be in generic-api-key's value: a word byte, one
// of .=-+/, or a byte of a multi-byte character.
func valueByte(c byte) bool {
	return wordByte(c) || c >= 0x80 || strings.IndexByte(".=-+/", c) >= 0
}

// tailAllows says the rule may match: it has no tail check, or one of
// its keywords' occurrences (at) passes it.
func tailAllows(r *glRule, lower string, at []int) bool {
	tail := tails[r.ID]
	if tail == nil {
		return true
	}
	for _, i := range at {
		for _, k := range r.Keywords {
			if strings.HasPrefix(lower[i:], k) && tail(lower, i+len(k), k) {
				return true
			}
		}
	}
	return false
}

// wordByte is regexp's \w: an ASCII letter, digit or underscore.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
