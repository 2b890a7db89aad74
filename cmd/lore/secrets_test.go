package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// plant is one secret placed in a line of text: kind names it, text is
// the line with the secret in it.
type plant struct{ kind, secret, text string }

const (
	lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	alnum      = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + lowerAlnum
	hexLower   = "0123456789abcdef"
)

func rnd(t *testing.T, alphabet string, n int) string {
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

func rndBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// plants are the 50+ kinds of secret of the scan corpus, generated at run
// time so that no key-shaped string lives in the repository.
func plants(t *testing.T) []plant {
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString(rndBytes(t, n)) }
	b64url := func(n int) string { return base64.RawURLEncoding.EncodeToString(rndBytes(t, n)) }
	pw := rnd(t, alnum, 6) + "!" + rnd(t, alnum, 6)
	pemBody := func() string {
		var lines []string
		for range 6 {
			lines = append(lines, b64(48))
		}
		return strings.Join(lines, "\n")
	}
	var ps []plant
	add := func(kind, secret, format string) {
		ps = append(ps, plant{kind, secret, strings.ReplaceAll(format, "{S}", secret)})
	}
	add("aws-access-key", "AKIA"+rnd(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), "aws configure set aws_access_key_id {S}")
	add("aws-secret", b64(30), "aws_secret_access_key = {S}")
	add("github-pat", "ghp_"+rnd(t, alnum, 36), "git remote set-url origin https://x-access-token:{S}@github.com/o/r.git")
	add("github-fine-grained", "github_pat_"+rnd(t, alnum+"_", 82), "export GH_TOKEN={S}")
	add("github-oauth", "gho_"+rnd(t, alnum, 36), "gh auth status shows token {S}")
	add("github-app", "ghs_"+rnd(t, alnum, 36), "the installation token {S} expired")
	add("gitlab-pat", "glpat-"+rnd(t, alnum, 20), "curl --header \"PRIVATE-TOKEN: {S}\" https://gitlab.example.com/api/v4/projects")
	add("gitlab-pat-bare", "glpat-"+rnd(t, alnum+"-_", 20), "used glpat token {S} for the registry")
	add("slack-bot", "xoxb-"+rnd(t, "0123456789", 12)+"-"+rnd(t, "0123456789", 13)+"-"+rnd(t, alnum, 24), "SLACK_BOT_TOKEN is {S}")
	add("slack-webhook", "https://hooks.slack.com/services/T"+rnd(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8)+"/B"+rnd(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8)+"/"+rnd(t, alnum, 24), "posted to {S}")
	add("stripe", "sk_live_"+rnd(t, alnum, 24), "stripe.api_key = '{S}'")
	add("openai", "sk-proj-"+rnd(t, alnum+"_-", 56)+"T3BlbkFJ"+rnd(t, alnum+"_-", 56), "OPENAI_API_KEY={S} python run.py")
	add("anthropic", "sk-ant-api03-"+rnd(t, alnum+"_-", 93)+"AA", "client = Anthropic(api_key=\"{S}\")")
	add("google-api", "AIza"+rnd(t, alnum+"_-", 35), "https://maps.googleapis.com/maps/api/geocode/json?key={S}")
	add("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI"+b64url(30)+"."+b64url(32), "the session cookie was {S}")
	add("rsa-private-key", "-----BEGIN RSA PRIVATE KEY-----\n"+pemBody()+"\n-----END RSA PRIVATE KEY-----", "wrote id_rsa:\n{S}\n")
	add("openssh-private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+pemBody()+"\n-----END OPENSSH PRIVATE KEY-----", "{S}")
	add("pgp-private-key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"+pemBody()+"\n=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----", "gpg --export-secret-keys printed\n{S}")
	add("truncated-private-key", "-----BEGIN EC PRIVATE KEY-----\n"+pemBody(), "cat key.pem\n{S}")
	add("postgres-url", rnd(t, alnum, 14), "DATABASE_URL=postgres://app:{S}@db.internal:5432/app")
	add("mongodb-url", rnd(t, alnum, 16), "mongosh \"mongodb+srv://admin:{S}@cluster0.example.mongodb.net/test\"")
	add("redis-url", rnd(t, alnum, 18), "REDIS_URL=redis://default:{S}@cache:6379/0")
	add("bearer", b64url(30), "curl -H \"Authorization: Bearer {S}\" https://api.example.com/v1/me")
	add("bearer-bare", rnd(t, alnum, 40), "the request carried Bearer {S} and got 401")
	add("basic-auth", base64.StdEncoding.EncodeToString([]byte("deploy:"+pw)), "Authorization: Basic {S}")
	add("mysql-p", pw, "mysql -uroot -p{S} -h 127.0.0.1 shop")
	add("mysqldump-p", rnd(t, alnum, 12), "mysqldump -u backup -p{S} --all-databases > all.sql")
	add("password-flag-eq", pw, "psql-wrapper --password={S} --host db")
	add("password-flag-space", rnd(t, alnum, 14), "vault login --password {S}")
	add("sshpass", rnd(t, alnum, 11), "sshpass -p {S} ssh deploy@10.0.0.4")
	add("sshpass-quoted", pw, "sshpass -p '{S}' scp dump.sql backup:/srv")
	add("password-midline", rnd(t, alnum, 10)+"9", "connect as admin with password: {S} then retry")
	add("password-yaml", rnd(t, alnum, 12), "  password: {S}")
	add("password-json", rnd(t, alnum, 12), "{\"username\": \"admin\", \"password\": \"{S}\"}")
	add("db-password-env", rnd(t, alnum, 16), "DB_PASSWORD={S}")
	add("export-token", rnd(t, alnum, 32), "export API_TOKEN={S}")
	add("env-secret-key", rnd(t, alnum+"!@#%^&*", 50), "DJANGO_SECRET_KEY='{S}'")
	add("pgpassword", rnd(t, alnum, 12), "PGPASSWORD={S} psql -h db -U app")
	add("docker-auth", base64.StdEncoding.EncodeToString([]byte("user:"+rnd(t, alnum, 20))), "{\"auths\": {\"registry.example.com\": {\"auth\": \"{S}\"}}}")
	add("docker-login", rnd(t, alnum, 20), "docker login -u ci -p {S} registry.example.com")
	add("azure-sas", rnd(t, alnum, 43)+"%3D", "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&sig={S}")
	add("azure-storage", b64(64), "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={S};EndpointSuffix=core.windows.net")
	add("azure-servicebus", b64(32), "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey={S}")
	add("mailgun", "key-"+rnd(t, lowerAlnum, 32), "curl -s --user 'api:{S}' https://api.mailgun.net/v3/x/messages")
	add("twilio-sid", "AC"+rnd(t, hexLower, 32), "client = Client(\"{S}\", token)")
	add("twilio-api-key", "SK"+rnd(t, hexLower, 32), "twilio api key {S}")
	add("twilio-token", rnd(t, hexLower, 32), "TWILIO_AUTH_TOKEN={S}")
	add("sendgrid", "SG."+rnd(t, alnum+"_-", 22)+"."+rnd(t, alnum+"_-", 43), "sg = SendGridAPIClient('{S}')")
	add("npm", "npm_"+rnd(t, alnum, 36), "//registry.npmjs.org/:_authToken={S}")
	add("pypi", "pypi-AgEIcHlwaS5vcmc"+rnd(t, alnum+"_-", 70), "twine upload -u __token__ -p {S} dist/*")
	add("shopify", "shpat_"+rnd(t, hexLower, 32), "X-Shopify-Access-Token: {S}")
	add("digitalocean", "dop_v1_"+rnd(t, hexLower, 64), "doctl auth init -t {S}")
	add("vault", "hvs."+rnd(t, alnum+"_-", 90), "VAULT_TOKEN={S} vault kv get secret/app")
	add("databricks", "dapi"+rnd(t, hexLower, 32), "databricks configure --token {S}")
	add("huggingface", "hf_"+rnd(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34), "huggingface-cli login --token {S}")
	add("age", "AGE-SECRET-KEY-1"+rnd(t, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), "age key: {S}")
	add("redis-cli", rnd(t, alnum, 16), "redis-cli -h cache -a {S} ping")
	add("kubectl-token", b64url(40), "kubectl --token={S} get pods")
	add("x-api-key", rnd(t, alnum, 32), "curl -H 'x-api-key: {S}' https://api.example.com")
	add("generic-api-key", rnd(t, alnum, 32), "api_key = \"{S}\"")
	add("client-secret", rnd(t, alnum+"~._-", 34), "client_secret: {S}")
	add("gcp-sa-private-key", "-----BEGIN PRIVATE KEY-----\\n"+strings.ReplaceAll(pemBody(), "\n", "\\n")+"\\n-----END PRIVATE KEY-----\\n", "{\"type\": \"service_account\", \"private_key\": \"{S}\"}")
	add("telegram", rnd(t, "0123456789", 10)+":AA"+rnd(t, alnum+"_-", 33), "TELEGRAM_BOT_TOKEN={S}")
	add("heroku", rnd(t, hexLower, 8)+"-"+rnd(t, hexLower, 4)+"-"+rnd(t, hexLower, 4)+"-"+rnd(t, hexLower, 4)+"-"+rnd(t, hexLower, 12), "HEROKU_API_KEY={S} heroku apps")
	return ps
}

// transcripts place every plant four times in Claude Code sessions: in a
// #lesson block and in a [PROCESS_KNOWLEDGE] label (a title) in one, in a
// failing tool's output and in the user's words in another (where no
// block covers the incident). Each placement carries a marker word so the
// test can tell that the text around the secret was kept.
func transcripts(t *testing.T, ps []plant) (blocks, tier2 []byte, markers []string) {
	var buf bytes.Buffer
	n := 0
	line := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	msg := func(role string, content any) map[string]any {
		n++
		return map[string]any{"type": role, "sessionId": "s-secrets", "uuid": fmt.Sprint("u", n),
			"message": map[string]any{"role": role, "content": content}}
	}
	text := func(s string) []any { return []any{map[string]any{"type": "text", "text": s}} }
	mark := func(where string) string {
		mk := "mark" + where + rnd(t, "abcdefghijklmnopqrstuvwxyz", 8)
		markers = append(markers, mk)
		return mk
	}
	for _, p := range ps {
		oneLine := strings.ReplaceAll(p.text, "\n", " ")
		line(msg("assistant", text(fmt.Sprintf("Noted.\n\n#lesson\ntool: Bash\ntrigger: ./%s.sh\nmistake: %s %s\nfix: read it from the vault\n#/lesson\n",
			mark("trigger"), mark("lesson"), oneLine))))
		line(msg("assistant", text(fmt.Sprintf("[PROCESS_KNOWLEDGE]\ntype: pattern\nlabel: %s %s\ndescription: deploy %s needs a credential\nfix: take it from the vault\n[/PROCESS_KNOWLEDGE]\n",
			mark("title"), oneLine, rnd(t, "abcdefghijklmnopqrstuvwxyz", 8)))))
	}
	blocks = append([]byte(nil), buf.Bytes()...)
	buf.Reset()
	for i, p := range ps {
		prog := mark("prog")
		id := fmt.Sprint("call", i)
		line(msg("assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash",
			"input": map[string]any{"command": "./" + prog + ".sh"}}}))
		line(msg("user", []any{map[string]any{"type": "tool_result", "tool_use_id": id, "is_error": true,
			"content": "Error: " + mark("tool") + " " + p.text}}))
		line(msg("assistant", []any{map[string]any{"type": "tool_use", "id": id + "b", "name": "Bash",
			"input": map[string]any{"command": "./" + prog + ".sh --retry"}}}))
		line(msg("user", []any{map[string]any{"type": "tool_result", "tool_use_id": id + "b", "content": "ok"}}))
		line(msg("assistant", text("Done with "+prog+".")))
		line(msg("user", "no, that's wrong: "+mark("user")+" "+p.text))
		line(msg("assistant", text("Understood.")))
	}
	return blocks, buf.Bytes(), markers
}

// TestScanWritesNoSecret plants 60+ kinds of secret in a real-shaped
// transcript and runs lore scan end to end: no secret reaches the --json
// output or any file under .lore, while the text around them does.
func TestScanWritesNoSecret(t *testing.T) {
	ps := plants(t)
	kinds := map[string]bool{}
	for _, p := range ps {
		kinds[p.kind] = true
	}
	if len(kinds) < 50 {
		t.Fatalf("only %d kinds", len(kinds))
	}
	dir := testrepo.New(t).Dir
	blocks, tier2, markers := transcripts(t, ps)
	trs := []string{filepath.Join(dir, "t", "blocks.jsonl"), filepath.Join(dir, "t", "tier2.jsonl")}
	if err := os.MkdirAll(filepath.Dir(trs[0]), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, data := range [][]byte{blocks, tier2} {
		if err := os.WriteFile(trs[i], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := Main(append([]string{"-C", dir}, args...), strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("lore %v: exit %d\n%s", args, code, errb.String())
		}
		return out.String()
	}
	run("init")
	// Many drafts: the default bound would leave most of them unwritten.
	cfg := filepath.Join(dir, ".lore", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, []byte("\nscan:\n  maxCandidates: 1000\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	written := run(append([]string{"scan", "--json", "--dry-run"}, trs...)...)
	run(append([]string{"scan"}, trs...)...)
	filepath.Walk(filepath.Join(dir, ".lore"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			written += string(b)
		}
		return nil
	})
	leaks := 0
	for _, p := range ps {
		if strings.Contains(written, p.secret) {
			leaks++
			t.Errorf("%s: secret written verbatim (planted as %q)", p.kind, p.text)
		}
	}
	missing := 0
	for _, m := range markers {
		if !strings.Contains(written, m) {
			missing++
		}
	}
	t.Logf("%d kinds, %d placements, %d leaked, %d markers not written", len(kinds), len(markers), leaks, missing)
	if missing > len(markers)/4 {
		t.Fatalf("%d of %d placements never reached the output: the test proves nothing", missing, len(markers))
	}
}
