package redact

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// heuristic is one generic case gitleaks leaves: a pattern, the kind it
// reports, the submatch that is the secret (0: the whole match), literals
// one of which must occur (lowercase) before the pattern runs, and an
// optional test that the value is a credential rather than a word or a
// reference. The literals keep the common text from paying for patterns
// that cannot match it: a pattern with assign set runs only where one of
// them is followed by : or =, a pattern with flag set only where one
// starts a word.
type heuristic struct {
	kind    string
	re      string
	group   int
	literal []string
	value   func(string) bool
	assign  bool
	flag    bool
}

// quoted is a shell word: bare, or in single or double quotes.
const quoted = `([^\s'"]+|'[^']+'|"[^"]+")`

// envValue is the value of a KEY=value line: quoted, or up to a comment.
const envValue = `('[^'\n]+'|"[^"\n]+"|[^\s"'#]{4,})`

var heuristics = []heuristic{
	// gitleaks wants a complete block; a transcript often cuts it, and a
	// PGP block ends in KEY BLOCK. Key material must follow the header
	// (after armor headers, and newlines that may still be escaped): a
	// header named in prose is no secret.
	{"private-key", `-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----(?:\s|\\[nr])*(?:[A-Za-z-]+:[^\n\\]*(?:\n|\\n)(?:\s|\\[nr])*)*[A-Za-z0-9+/=]{40}[\s\S]*?(?:-----END[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----|\z)`, 0, []string{"private key"}, nil, false, false},
	// Keys of vendors without a gitleaks rule share the sk- shape.
	{"api-key", `(?:^|[^A-Za-z0-9_\-])(sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,})`, 1, []string{"sk-"}, hasDigitAndLetter, false, false},
	{"url-password", `[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@"'<>]+:([^\s@/"'<>]+)@`, 1, []string{"://"}, credential, false, false},
	// .env style: upper-case names only; lower-case ones are code.
	{"env", `(?m)^[ \t]*(?:export[ \t]+)?([A-Z_][A-Z0-9_.\-]*)[ \t]*[=:][ \t]*` + envValue, 2, nil, nil, false, false},
	{"env", `(?:[\s;&|(]|^)([A-Z_][A-Z0-9_]*)=` + envValue, 2, []string{"="}, nil, false, false},
	// password: x, db_password=x, "password": "x", --pass=x (also JSON
	// with escaped quotes, as tool output shows it).
	{"password", `(?i)(?:(?:^|[^a-z])(?:password|passwd|passphrase)|--?(?:pass|pwd))\\?["']?[ \t]*[:=][ \t]*(?:\\?["'])?([^\s'"\\]+)`, 1, []string{"password", "passwd", "passphrase", "-pass", "-pwd"}, credential, true, false},
	// client_secret: x, token = x mid-line, where gitleaks' generic rule
	// stops at a character it does not expect (~ in Azure secrets).
	{"secret", `(?i)(?:^|[^a-z])(?:secret|token|api_?key|access_?key|private_?key|client_?secret|auth_?token|access_?token|refresh_?token)\\?["']?[ \t]*[:=][ \t]*(?:\\?["'])?([^\s'"\\,;]{8,})`, 1, []string{"secret", "token", "key"}, randomish, true, false},
	{"password", `(?i)--?(?:password|passwd|pass|token|api-?key|secret|client-secret|auth-token|access-token)[ \t]+` + quoted, 1, []string{"-pass", "-token", "-api", "-secret", "-client-secret", "-auth-token", "-access-token"}, credential, false, true},
	{"password", `(?:^|[\s;&|(\x60"'])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb)\b[^\n|;&]*?\s-p` + quoted, 1, []string{"mysql", "mariadb"}, credential, false, false},
	{"password", `\b(?:sshpass|(?:docker|podman|buildah|skopeo|nerdctl)\s+login|helm\s+registry\s+login)\b[^\n|;&]*?\s-p\s*` + quoted, 1, []string{"sshpass", "login"}, credential, false, false},
	{"password", `\bredis-cli\b[^\n|;&]*?\s-a\s+` + quoted, 1, []string{"redis-cli"}, credential, false, false},
	{"bearer", `(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{8,}=*)`, 1, []string{"bearer"}, randomish, false, false},
	{"authorization", `(?i)\b(?:authorization|proxy-authorization)["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|bot|apikey)\s+)?([^\s"',]{8,})`, 1, []string{"authorization"}, credential, true, false},
	{"api-key", `(?i)\b(?:x-api-key|api-key|apikey|x-auth-token|x-access-token|private-token|x-vault-token|x-goog-api-key)["']?\s*[:=]\s*["']?([^\s"',@]{8,})`, 1, []string{"key", "token"}, credential, true, false},
	{"json-secret", `(?i)"(?:auth|identitytoken|registrytoken|password|passwd|secret|client_secret|clientsecret|api_?key|access_?token|refresh_?token|auth_?token|token|private_?key)"\s*:\s*"([^"]{4,})"`, 1, []string{`"`}, credential, false, false},
	{"connection-string", `(?:^|[;?&\s"'])(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig|Pwd)=([^;&\s"']{4,})`, 1, []string{"key=", "sig=", "pwd=", "signature="}, credential, false, false},
	{"twilio-account-sid", `\bAC[0-9a-f]{32}\b`, 0, []string{"ac"}, nil, false, false},
	{"mailgun-key", `\bkey-[0-9a-z]{32}\b`, 0, []string{"key-"}, nil, false, false},
}

var (
	heurOnce sync.Once
	heurRes  []*regexp.Regexp
	heurErr  error
	fieldRef *regexp.Regexp // a.b.c: a field of a variable, not a value
)

func compileHeuristics() {
	fieldRef = regexp.MustCompile(`^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+,?$`)
	for _, h := range heuristics {
		re, err := regexp.Compile(h.re)
		if err != nil {
			heurErr = fmt.Errorf("redact: heuristic %s: %w", h.kind, err)
			return
		}
		heurRes = append(heurRes, re)
	}
}

// heuristicSpans returns the secrets lore's heuristics find in s; hits
// are where each heuristic's literals occur in lower (keywordHits).
func heuristicSpans(s, lower string, hits [][]int) ([]Span, error) {
	heurOnce.Do(compileHeuristics)
	if heurErr != nil {
		return nil, heurErr
	}
	var out []Span
	// Every pattern but private key blocks matches within a line: each
	// runs only on the lines its literals allow, so a long text costs what
	// its few candidate lines cost. lower keeps s's offsets (lowerAligned).
	lines := lineRanges(s)
	for i := range heuristics {
		h := &heuristics[i]
		if h.kind == "private-key" {
			if hits[i] != nil {
				out = append(out, h.spans(heurRes[i], s, 0, len(s))...)
			}
			continue
		}
		out = h.hitSpans(out, heurRes[i], s, lower, hits[i], lines)
	}
	return out, nil
}

// envLine says a .env line's pattern (the one without literals) can
// match the line l: past blanks and an optional export, an upper-case
// name and blanks are followed by = or :. It reads the line as the
// pattern does, so most lines fail at their first byte and are spared
// the pattern (docs/design.md, Incremental build).
func envLine(l string) bool {
	l = strings.TrimLeft(l, " \t")
	if rest, ok := strings.CutPrefix(l, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		l = strings.TrimLeft(rest, " \t")
	}
	i := 0
	for i < len(l) && envNameByte(l[i], i == 0) {
		i++
	}
	rest := strings.TrimLeft(l[i:], " \t")
	return i > 0 && rest != "" && (rest[0] == '=' || rest[0] == ':')
}

// envNameByte says c continues a .env name ([A-Z_][A-Z0-9_.-]*).
func envNameByte(c byte, first bool) bool {
	return c >= 'A' && c <= 'Z' || c == '_' || !first && (c >= '0' && c <= '9' || c == '.' || c == '-')
}

// spans runs the pattern on s[start:end] and keeps the values that pass.
func (h *heuristic) spans(re *regexp.Regexp, s string, start, end int) []Span {
	var out []Span
	for _, m := range re.FindAllStringSubmatchIndex(s[start:end], -1) {
		shift(m, start)
		from, to := m[2*h.group], m[2*h.group+1]
		if from < 0 || to <= from || h.flag && !flagStart(s, m[0]) {
			continue
		}
		from, to = trimValue(s, from, to)
		if h.secret(s, m, s[from:to]) {
			out = append(out, Span{from, to, h.kind})
		}
	}
	return out
}

// shift moves the match indexes m (of the found submatches) by start.
func shift(m []int, start int) {
	for j := range m {
		if m[j] >= 0 {
			m[j] += start
		}
	}
}

// flagStart says a flag matched at i starts a word.
func flagStart(s string, i int) bool {
	return i == 0 || strings.ContainsRune(" \t\n\"'`(", rune(s[i-1]))
}

// trimValue drops the quotes around a value and the punctuation after it
// that ends the sentence or the `code`.
func trimValue(s string, from, to int) (int, int) {
	if v := s[from:to]; len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		from, to = from+1, to-1
	}
	for to > from && strings.IndexByte("`,;.)]}>", s[to-1]) >= 0 {
		to--
	}
	return from, to
}

// secret says the value v of the match m is a credential: its own test
// passes, and for a KEY=value line the name holds one too.
func (h *heuristic) secret(s string, m []int, v string) bool {
	if h.kind == "env" && (!secretKey(s[m[2]:m[3]]) || !credential(v)) {
		return false
	}
	return h.value == nil || h.value(v)
}

// assignedAt says s[j:] starts with : or =, past any quotes, backslashes
// and blanks.
func assignedAt(s string, j int) bool {
	for j < len(s) && strings.IndexByte("\"'\\ \t", s[j]) >= 0 {
		j++
	}
	return j < len(s) && (s[j] == ':' || s[j] == '=')
}

func containsAny(s string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(s, l) {
			return true
		}
	}
	return len(lits) == 0
}

// secretKey says whether a KEY=value name holds a credential: one of its
// words names one, and no word after it is what describes a credential
// without being one (SSH_KEY_PATH, TOKEN_TTL, API_KEY_ID,
// TOKEN_EXPIRY_SECONDS).
func secretKey(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	found := false
	for _, w := range words {
		switch {
		case secretWord(w, len(words)):
			found = true
		case found && describing[w]:
			return false
		}
	}
	return found
}

// describing are last words of a name that describe a credential without
// being one.
var describing = setOfWords("PATH", "FILE", "DIR", "NAME", "ID", "URL", "URI", "HOST", "PORT", "USER", "USERNAME", "TYPE",
	"LEN", "LENGTH", "SIZE", "ENV", "MODE", "COUNT", "LIMIT", "TTL", "TIMEOUT", "EXPIRY", "EXPIRES",
	"HEADER", "PREFIX", "FIELD", "REGION", "VERSION", "ENABLED", "ALGORITHM", "FORMAT")

// secretWords are words of a name that say it holds a credential.
var secretWords = setOfWords("SECRET", "SECRETS", "TOKEN", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "CREDENTIAL",
	"CREDENTIALS", "AUTH", "APIKEY", "PRIVATE", "SID")

func setOfWords(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// secretWord says the word w of a name of n words names a credential.
func secretWord(w string, n int) bool {
	if secretWords[w] {
		return true
	}
	if w == "KEY" {
		return n > 1 // a bare "key:" is a YAML field, API_KEY is not
	}
	for _, part := range []string{"PASSWORD", "SECRET", "TOKEN", "APIKEY"} {
		if strings.Contains(w, part) && !strings.HasSuffix(w, part+"S") {
			return true
		}
	}
	return false
}

// credential rejects values that only stand for a credential: references
// ($VAR, ${VAR}, %VAR%), placeholders (<token>, ***, xxx, {{ x }}), paths,
// booleans and words that say a value is asked for.
func credential(v string) bool {
	v = strings.Trim(v, `"'`)
	if len(v) < 3 {
		return false
	}
	lv := strings.ToLower(v)
	if standIns[lv] || reference(v) || strings.Trim(lv, "x*.") == "" {
		return false
	}
	// Code, not a value: a call, an index, a field of a variable.
	return !strings.Contains(v, "(") && !strings.Contains(v, "[:") && !fieldRef.MatchString(v)
}

// standIns are words written where a credential is asked for or left out.
var standIns = setOfWords("null", "none", "nil", "true", "false", "empty", "required", "optional", "hidden", "prompt",
	"undefined", "string", "secret", "password", "token", "changeme", "example", "stdin", "yes", "no")

// reference says v names a value elsewhere: a variable, a path, a
// placeholder.
func reference(v string) bool {
	switch v[0] {
	case '$', '/', '[', '(':
		return true
	case '<', '%', '{':
		if strings.ContainsAny(v[len(v)-1:], ">%}") {
			return true
		}
	}
	return strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../")
}

// randomish: a token rather than a word ("Bearer authentication") or a
// name (csrfToken): digits or mixed case that is not CamelCase, or long.
func randomish(v string) bool {
	if !credential(v) || isWord(v) {
		return false
	}
	n := countClasses(v)
	return n.digit > 0 || n.lower > 0 && n.upper > 0 || len(v) >= 32
}

func hasDigitAndLetter(s string) bool {
	n := countClasses(s)
	return n.digit > 0 && n.lower+n.upper > 0
}

// entropySpans finds long tokens that look random (base64/hex of a key)
// and are not ordinary identifiers, paths, hashes or encoded text. It
// walks runs of token characters by hand: a regexp here dominated a
// scan's profile. Only a run of minEntropyToken bytes or more is judged,
// so it reads a candidate run from its far end back: a byte there that
// continues no token rules out every run that starts up to it, and most
// of a text (words, paths, code) is never read at all; reading every
// byte was a sixth of a cold build's secret check.
func entropySpans(s string) []Span {
	var out []Span
	// A run may start at start: it is 0 or follows a byte that ends a
	// token, and s[start:known] are read and continue one.
	start, known := 0, 0
	for start+minEntropyToken <= len(s) {
		j := start + minEntropyToken - 1
		for j >= known && inToken(s, j) {
			j--
		}
		if j >= known { // s[j] ends a token: a run starts after it, if at all
			start, known = j+1, start+minEntropyToken
			continue
		}
		end := start + minEntropyToken
		for end < len(s) && inToken(s, end) {
			end++
		}
		if highEntropy(s[:start], s[start:end]) {
			out = append(out, Span{start, end, "high-entropy"})
		}
		start, known = end+1, end+1
	}
	return out
}

// minEntropyToken is the length of the shortest token entropySpans judges.
const minEntropyToken = 32

// inToken says s[i] continues a token: = inside a token is an assignment
// (KEY=value, ?key=value); only trailing = is base64 padding.
func inToken(s string, i int) bool {
	if !tokenBytes[s[i]] {
		return false
	}
	return s[i] != '=' || i+1 >= len(s) || !tokenBytes[s[i+1]] || s[i+1] == '='
}

// highEntropy says the token tok (after the text before) is a secret:
// random-looking and none of a digest, an agent API's id or encoded text.
// A token that names a file or record by its ids is judged by what is
// left between them (idParts).
func highEntropy(before, tok string) bool {
	if parts, ok := idParts(tok); ok {
		for _, p := range parts {
			if secretLike(before, p) {
				return true
			}
		}
		return false
	}
	return secretLike(before, tok)
}

// secretLike is a token judged on its own: random-looking and none of a
// digest, an agent API's id or encoded text.
func secretLike(before, tok string) bool {
	return looksRandom(withoutExt(tok)) && !integrity(before, tok) && !knownID(tok) && !encodedText(tok)
}

// integrity is a digest in base64, public by design: a Subresource
// Integrity hash (sha512-... in npm lockfiles and <script>) or a Go
// module hash (h1:... in go.sum); before is the text before the token.
func integrity(before, tok string) bool {
	for _, p := range []string{"sha1-", "sha256-", "sha384-", "sha512-"} {
		if rest, ok := strings.CutPrefix(tok, p); ok {
			_, err := base64.StdEncoding.DecodeString(rest)
			return err == nil
		}
	}
	if strings.HasSuffix(before, "h1:") || strings.HasSuffix(before, "sha256:") || strings.HasSuffix(before, "sha512:") {
		_, err := base64.StdEncoding.DecodeString(tok)
		return err == nil
	}
	return false
}

// withoutExt drops a file extension (a dot and one to five small letters):
// a name is judged by its stem, so a UUID-named transcript
// (fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl) is as regular as the UUID.
func withoutExt(tok string) string {
	i := strings.LastIndexByte(tok, '.')
	if ext := tok[i+1:]; i < 0 || len(ext) < 1 || len(ext) > 5 || strings.Trim(ext, lowerLetters) != "" {
		return tok
	}
	return tok[:i]
}

// knownID is an id agents' APIs put in transcripts (message, tool call,
// request ids): random by design and no credential.
func knownID(tok string) bool {
	for _, p := range []string{"msg_", "toolu_", "srvtoolu_", "agent_msg_", "req_", "call_", "chatcmpl-", "resp_", "run_", "thread_", "asst_", "file-", "batch_"} {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	return false
}

// encodedText is base64 of readable text with no secret in it (test data,
// a config echoed through base64): decoded, it is printable and clean.
func encodedText(tok string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(tok)
		if err != nil || !utf8.Valid(b) {
			continue
		}
		if !printable(string(b)) {
			return false
		}
		inner, err := Find(string(b))
		return err == nil && len(inner) == 0
	}
	return false
}

// printable: no control characters but line breaks and tabs, no invalid
// UTF-8.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// looksRandom: mixed character classes and Shannon entropy above what
// words, paths and identifiers reach. Hex strings (git hashes) are allowed
// up to 64 characters, since commit ids and sha256 sums are everywhere in
// transcripts, and at the lengths of the longer digests: 96 (sha384) and
// 128 (sha512, BLAKE2b, sha3-512), as sha512sum and b2sum print them. A
// key of those lengths written as a value (SECRET=..., token: ...) is
// still found by its name.
func looksRandom(tok string) bool {
	if strings.Contains(tok, "REDACTED") {
		return false
	}
	if isHex(tok) {
		return len(tok) > 64 && len(tok) != 96 && len(tok) != 128
	}
	n := countClasses(tok)
	if mostlyWords(tok) || n.other > len(tok)/4 { // paths, dotted names, dashed-words
		return false
	}
	return randomMix(n, tok) && entropy(tok) >= 4.0
}

// randomMix: all three classes, or two that look drawn at random: digits
// with letters in a long token, or mixed case with capitals far more
// often than at word starts (CamelCase identifiers).
func randomMix(n classes, tok string) bool {
	switch kinds := n.kinds(); {
	case kinds == 3:
		return true
	case kinds == 2 && n.digit > 0:
		return len(tok) >= 40
	case kinds == 2:
		return n.upper*4 >= n.lower+n.upper && entropy(tok) >= 4.2
	}
	return false
}

// mostlyWords: paths, module names and snake_case names are mostly words
// between separators; in a random key such words cover little of the
// token.
func mostlyWords(tok string) bool {
	words, covered := 0, 0
	for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '/' || r == '.' || r == '_' || r == '-' }) {
		word, cover := wordCover(part)
		words += boolInt(word)
		covered += cover
	}
	return words >= 2 && (covered*2 >= len(tok) || tok[0] == '/' && covered*3 >= len(tok))
}

// wordCover says a part of a token is a word, and how much of the token
// it covers as a word or as an arity, a version or a hash.
func wordCover(part string) (word bool, covered int) {
	switch {
	case len(part) >= 3 && isWord(part):
		return true, len(part)
	case len(part) <= 4 && strings.Trim(part, digits) == "", isHex(part) && len(part) <= 64:
		return false, len(part)
	}
	return false, 0
}

// isWord: letters only, lower case or CamelCase (JSONSerializer): few
// changes from a small letter to a capital, where random text has many.
func isWord(s string) bool {
	humps := 0
	for i := 0; i < len(s); i++ {
		if !letterBytes[s[i]] {
			return false
		}
		if i > 0 && isUpper(s[i]) && isLower(s[i-1]) {
			humps++
		}
	}
	return humps*5 <= len(s)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !hexBytes[s[i]] {
			return false
		}
	}
	return true
}

func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
