package redact

import (
	"crypto/rand"
	"encoding/base64"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// Secrets are generated at run time so no real-looking key lives in the repo.
func randFrom(t *testing.T, alphabet string, n int) string {
	t.Helper()
	var b strings.Builder
	for range n {
		i, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteByte(alphabet[i.Int64()])
	}
	return b.String()
}

const (
	upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum       = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b64url      = alnum + "_-"
)

func b64(t *testing.T, n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(buf)
}

func TestSecretsAreRedacted(t *testing.T) {
	pemBody := b64(t, 300)
	cases := []struct{ name, secret, text, kind string }{
		{"aws", "", "AKIA" + randFrom(t, upperDigits, 16), "aws-access-token"},
		{"gcp", "", "AIza" + randFrom(t, b64url, 35), "gcp-api-key"},
		{"ghp", "", "ghp_" + randFrom(t, alnum, 36), "github-pat"},
		{"github_pat", "", "github_pat_" + randFrom(t, alnum+"_", 82), "github-fine-grained-pat"},
		{"sk", "", "sk-" + randFrom(t, alnum, 48), "api-key"},
		{"sk-proj", "", "sk-proj-" + randFrom(t, b64url, 60), "api-key"},
		{"jwt", "", "eyJ" + b64(t, 20) + ".eyJ" + b64(t, 40) + "." + b64(t, 32), ""},
		{"pem", "", "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----", "private-key"},
		{"url", randFrom(t, alnum, 14), "", "url-password"},
		{"env", randFrom(t, alnum, 12), "", ""},
		{"entropy", "", b64(t, 33), "high-entropy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			secret, text := c.text, "before "+c.text+" after"
			switch c.name {
			case "url":
				secret = c.secret
				text = "git clone https://deploy:" + secret + "@git.example.org/x.git"
			case "env":
				secret = c.secret
				text = "line one\nexport DATABASE_PASSWORD=" + secret + "\nSTRIPE_API_KEY: '" + secret + "x'\n"
			}
			got, err := String(text)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got, secret) {
				t.Fatalf("secret survived: %q", got)
			}
			if !strings.Contains(got, Placeholder(c.kind)) && !(c.kind == "" && strings.Contains(got, placeholderPrefix)) {
				t.Fatalf("want %s in %q", Placeholder(c.kind), got)
			}
		})
	}
}

func TestOrdinaryTextIsKept(t *testing.T) {
	for _, s := range []string{
		"commit 1f0c2a7d9e5b4c3a2f1e0d9c8b7a6f5e4d3c2b1a fixed it",
		"session 4d5611e5-241a-462a-8d15-5122611a9569",
		"see /home/user/projects/spotter/lib/spotter_web/live/session_live.ex",
		"github.com/lore-agents/lore/internal/knowledge/markdown.ParseLearnings",
		"Use `python -m pytest --no-header -rN -p no:faulthandler`",
		"TestSecretsAreRedactedWhenTheyAppearInLongIdentifiers",
		"HandleIncomingWebhookRequestAndDispatchEvents",
		"NewKubernetesClientsetFromConfigWithDefaults",
		"the task-ask-skill mode; sk-learn is a library",
		"PATH=/usr/local/bin:/usr/bin",
		"_build/dev/lib/spotter/priv/repo/migrations/20260212155510_add_message_upsert_identity.exs",
	} {
		got, err := String(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != s {
			t.Errorf("changed ordinary text:\n in: %q\nout: %q", s, got)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("export API_TOKEN=abcdef123456")
	f.Add("https://u:p@h/x")
	f.Add("-----BEGIN PRIVATE KEY-----\nabc")
	f.Add("mysql -uroot -pS3cr3t! db; sshpass -p 'a b' ssh h; password: hunter22")
	f.Add("Authorization: Bearer eyJabc.def123; {\"auth\": \"dXNlcjpwYXNz\"} AccountKey=abc123==;")
	f.Add("DB_PASSWORD=[REDACTED:env]x PGPASSWORD=abc123 psql client_secret: Ab1~cd2.ef3")
	f.Fuzz(func(t *testing.T, s string) {
		var out, again string
		var err error
		fuzzlimit.Run(t, func() {
			if out, err = String(s); err == nil {
				again, _ = String(out)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
	})
}

// TestFailClosed: a rule that cannot compile makes the detector fail for
// text that would use it, and String then returns nothing at all.
func TestFailClosed(t *testing.T) {
	bad := &glRule{ID: "broken", Regex: `(`, Keywords: []string{"brokenrule"}}
	gitleaksRules = append(gitleaksRules, bad)
	keywordOnce = sync.Once{} // index the new rule's keyword
	defer func() {
		gitleaksRules = gitleaksRules[:len(gitleaksRules)-1]
		keywordOnce = sync.Once{}
	}()
	if out, err := String("token ghp_" + randFrom(t, alnum, 36)); err != nil || strings.Contains(out, "ghp_") {
		t.Fatalf("a text that does not reach the rule: %q, %v", out, err)
	}
	out, err := String("brokenrule AKIA" + strings.Repeat("Q", 16))
	if err == nil || out != "" {
		t.Fatalf("want an error and nothing, got %q, %v", out, err)
	}
	if _, err := Find("brokenrule"); err == nil {
		t.Fatal("Find: want an error")
	}
}

// TestDigestLengthKeysByName: a hex key as long as a sha384 or sha512
// digest (which stay, see testdata/ordinary.txt) is still a secret where
// its name says so, and a name with a describing word before its
// credential word still holds one.
func TestDigestLengthKeysByName(t *testing.T) {
	for _, n := range []int{96, 128} {
		key := randFrom(t, "0123456789abcdef", n)
		for _, text := range []string{
			"export HMAC_SECRET=" + key,
			"signing_key: " + key,
			"SESSION_EXPIRY_TOKEN=" + key,
		} {
			got, err := String(text)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got, key) {
				t.Errorf("%d hex digits survive in %q", n, got)
			}
		}
	}
}
