package redact

import (
	"regexp"
	"strings"
	"time"
)

// Identifiers that name files and records rather than hold a credential:
// a transcript's file name (Codex's rollout-<time>-<uuid>.jsonl, Gemini
// CLI's session-<time>-<id8>.jsonl, Claude Code's <uuid>.jsonl) in a scan
// draft's Evidence, or a lessons-learned reference (lessons-learned:
// <ULID>/edits) in an imported item, or a Nix store path in a build log. Each is random by design, and joined
// with its prefix and extension the token is long enough for the entropy
// test; taken out, what remains is judged on its own.
var (
	// A UUID in its canonical form, with the version and variant bits
	// RFC 9562 fixes (a random 36-character token rarely has both).
	uuidRe = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}`)
	// A ULID: 26 capitals and digits of Crockford's base32 between
	// separators; its time is checked below.
	ulidRe = regexp.MustCompile(`(?:^|[^0-9A-Za-z])([0-7][0-9A-HJKMNP-TV-Z]{25})(?:$|[^0-9A-Za-z])`)
	// A file name's time stamp: 2026-11-20T10-11-12 (Codex), 2026-11-20T10-11
	// (Gemini CLI), with colons or a fraction as other tools write it.
	stampRe = regexp.MustCompile(`(?:19|20)\d\d-[01]\d-[0-3]\dT[0-2]\d[-:][0-5]\d(?:[-:][0-5]\d(?:\.\d+)?)?Z?`)
	// A Nix store path's hash: 32 characters of Nix's base32 (no e, o, t,
	// u) between /nix/store/ and the package's name.
	nixRe = regexp.MustCompile(`/nix/store/[0-9a-df-np-sv-z]{32}-`)
)

// idParts splits tok at the ids in it (ok false when it has none) and
// returns what is left between them that is long enough to be a secret.
// Each part is judged alone: the ids' random look is theirs, and a
// secret joined to a file name's prefix ("rollout-") and an id must be
// found all the same.
func idParts(tok string) (parts []string, ok bool) {
	rest := withoutIDs(tok)
	if rest == tok {
		return nil, false
	}
	for _, p := range strings.Split(rest, idGap) {
		if p = strings.Trim(p, "-_./:"); len(p) >= 32 {
			parts = append(parts, p)
		}
	}
	return parts, true
}

// idGap marks where withoutIDs took an id out.
const idGap = "\x00"

// withoutIDs takes the time stamps, UUIDs, Nix store hashes and ULIDs out
// of tok, leaving idGap in their place.
func withoutIDs(tok string) string {
	tok = stampRe.ReplaceAllString(tok, idGap)
	tok = uuidRe.ReplaceAllString(tok, idGap)
	tok = nixRe.ReplaceAllString(tok, idGap)
	// Two ULIDs with one separator between them share it, and a search
	// finds the first only: cut one at a time until none is left.
	for {
		cut := false
		for _, m := range ulidRe.FindAllStringSubmatchIndex(tok, -1) {
			if ulidTime(tok[m[2]:m[3]]) {
				tok, cut = tok[:m[2]]+idGap+tok[m[3]:], true
				break
			}
		}
		if !cut {
			return tok
		}
	}
}

// crockford is ULID's alphabet, in the order of the values it encodes.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ulidTime reports whether a ULID's first ten characters (its 48-bit
// millisecond time) fall between 2000 and 2200: a ULID made by a clock,
// where a random token of its alphabet lands there about one time in
// forty.
func ulidTime(s string) bool {
	var ms int64
	for i := 0; i < 10; i++ {
		ms = ms*32 + int64(strings.IndexByte(crockford, s[i]))
	}
	t := time.UnixMilli(ms).UTC()
	return t.Year() >= 2000 && t.Year() < 2200
}
