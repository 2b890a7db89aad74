package hooks

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func TestSum256(t *testing.T) {
	for n := 0; n < 300; n++ {
		msg := []byte(strings.Repeat("s€", n)[:n+n/3])
		if sum256(msg) != sha256.Sum256(msg) {
			t.Fatalf("sum256 differs from crypto/sha256 for %d bytes", len(msg))
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("abc-123"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		if sum256(msg) != sha256.Sum256(msg) {
			t.Fatalf("sum256(%q) differs from crypto/sha256", msg)
		}
	})
}
