package redact

import "testing"

// A truncated key block (plain, JSON-escaped, PGP and encrypted armor) is
// redacted; a header named in prose is not a secret (issue 15: lint flagged
// it in a lesson about PKCS#1 keys).
func TestPrivateKeyNeedsKeyMaterial(t *testing.T) {
	for _, c := range []struct {
		in  string
		red bool
	}{
		{"keys download as PKCS#1 (`-----BEGIN RSA PRIVATE KEY-----`), but Node.js needs PKCS#8", false},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\nlWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE", true},
		{`"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\n`, true},
		{"-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF0Lp5kBCADKbwpNY1WZ6PzxK2CK0xZSJDKCsXkZKVVAZNAadDM8tzBtTdJ1", true},
		{"-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF\n\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH", true},
	} {
		out, err := String(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if (out != c.in) != c.red {
			t.Errorf("%q -> %q", c.in, out)
		}
	}
}
