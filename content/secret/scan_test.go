package secret

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fake secrets below are built by concatenation so that this file does
// not itself look like it leaks one to other scanners. None is real.
var (
	fakeAWSID     = "AKIA" + "Z2QX7RTLM4KD9PWB"
	fakeAWSSecret = "q8Vt3" + "Lr9ZpKx2WmN7bYcJ4hGd6FsA1eTuR5oXp+/"
	fakeGHP       = "ghp_" + "7Hk2mQ9xLp4Rt8Vw3Zs6Nb1Yc5Fd0Gj2Ke9Ua"
	fakeJWT       = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemBody       = "MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi+Zj1n7Xw2Kq8tV4hL0cRbUe5s"
)

func TestScan(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // kinds, in order
	}{
		// Positives.
		{"aws access key id", "aws_access_key_id = " + fakeAWSID, []string{"AWS access key"}},
		{"aws session key id", "id: ASIA" + "J3K8L2M9N4P7Q1R6", []string{"AWS access key"}},
		{"aws secret in ini", "aws_secret_access_key = " + fakeAWSSecret, []string{"AWS secret access key"}},
		{"aws secret exported", `export AWS_SECRET_ACCESS_KEY="` + fakeAWSSecret + `"`, []string{"AWS secret access key"}},
		{"github classic pat", "token " + fakeGHP, []string{"GitHub token"}},
		{"github oauth", "gho_" + "9Xk2Lm4Np6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef2Gh4", []string{"GitHub token"}},
		{"github fine-grained", "github_pat_" + "11ABCDEFG0123456789abc_" + strings.Repeat("aB3dE5fG7h", 6), []string{"GitHub token"}},
		{"gitlab", "GITLAB_TOKEN=glpat-" + "x7Yk2Lm9Qp4Rs8Tv1Wz3", []string{"GitLab token"}},
		{"slack bot token", "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", []string{"Slack token"}},
		{"slack webhook", "https://hooks.slack.com/services/" + "T024BE7LD/B01ABCDEF12/k9Xy2Zq7Lm4Np8Rs1Tv6Wu3A", []string{"Slack webhook"}},
		{"stripe secret", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", []string{"Stripe key"}},
		{"stripe restricted", "rk_live_" + "51H8xY2eZvKYlo2C7q3Rt9Wm", []string{"Stripe key"}},
		{"stripe test key", "sk_test_" + "4eC39HqLyjWDarjtT1zdp7dc", []string{"Stripe key"}},
		{"short password", "password: hunter2", []string{"password"}},
		{"google api key", "key=AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", []string{"Google API key"}},
		{"openai project key", "OPENAI_API_KEY=sk-proj-" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7", []string{"OpenAI API key"}},
		{"openai legacy key", "sk-" + "Zx8Cv6Bn4Ma2Sd0Fg8Hj6Kl4Qw2Er0Ty8Ui6Op4As2Df0Gh", []string{"OpenAI API key"}},
		{"anthropic key", "x-api-key: sk-ant-api03-" + "Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2Vb4Nm6", []string{"Anthropic API key"}},
		{"private key block", "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----", []string{"private key"}},
		{"openssh private key", "```\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n```", []string{"private key"}},
		{"jwt", "session=" + fakeJWT, []string{"JWT"}},
		{"bearer header", "Authorization: Bearer 9f3Kq2Lm7Xp4Rt8Vw1Zs6Nb", []string{"bearer token"}},
		{"bearer in curl", `curl -H "Authorization: Bearer ya29.a0AfH6SMBx7Lk2Qm9" https://api`, []string{"bearer token"}},
		{"bearer jwt", "Authorization: Bearer " + fakeJWT, []string{"JWT"}},
		{"postgres url", "DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/app", []string{"credentialed URL"}},
		{"https url", "git clone https://deploy:hunter2@git.example.org/team/repo.git", []string{"credentialed URL"}},
		{"password assignment", `password = "Xk9#mQ2vL7pR4tZw"`, []string{"secret assignment"}},
		{"api key yaml", "api_key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", []string{"secret assignment"}},
		{"db password env", "DB_PASSWORD=Tr0ub4dor-3xKq9Lm2", []string{"secret assignment"}},
		{"client secret json", `"client_secret": "GOCSPX-1a2B3c4D5e6F7g8H9i0J"`, []string{"secret assignment"}},
		{"two on one line", fakeAWSID + " " + fakeGHP, []string{"AWS access key", "GitHub token"}},
		{"specific wins over generic", "GITHUB_TOKEN=" + fakeGHP, []string{"GitHub token"}},

		// Negatives: prose, placeholders and look-alikes.
		{"prose about env var", "Set AWS_SECRET_ACCESS_KEY in your environment before running the tool.", nil},
		{"aws documented example id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", nil},
		{"aws documented example secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", nil},
		{"env reference", "AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY", nil},
		{"uuid", "request id 123e4567-e89b-12d3-a456-426614174000 failed", nil},
		{"git hash", "fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b", nil},
		{"data uri image", "![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)", nil},
		{"ssh user at host", "git clone git@github.com:ptwiki/pt.git or ssh://git@host:22/repo", nil},
		{"user at host url", "https://alice@example.com/repo.git", nil},
		{"placeholder password word", "mysql://user:password@localhost/db", nil},
		{"placeholder angle", "https://user:<password>@registry.example.com", nil},
		{"placeholder env", "postgres://app:${PASS}@db:5432/app", nil},
		{"placeholder stars", "https://admin:****@host/", nil},
		{"url with port", "http://localhost:8080/path@v1.2.3", nil},
		{"prose password", `password = "correct horse battery staple"`, nil},
		{"bearer placeholder", "Authorization: Bearer <token>", nil},
		{"bearer env", `Authorization: Bearer $TOKEN`, nil},
		{"bearer shouting placeholder", "Authorization: Bearer YOUR_ACCESS_TOKEN_HERE", nil},
		{"pem header without body", "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", nil},
		{"public key block", "-----BEGIN PUBLIC KEY-----\n" + pemBody, nil},
		{"token prefix in prose", "Classic tokens start with ghp_ and fine-grained ones with github_pat_.", nil},
		{"slack placeholder", "SLACK_TOKEN=xoxb-your-bot-token-goes-here", nil},
		{"openai placeholder", "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil},
		{"template value", "token: {{ .Values.token }}", nil},
		{"secret path", "password_file: /etc/app/credentials/password.txt", nil},
		{"getenv", `apiKey := os.Getenv("API_KEY")`, nil},
		{"letters only value", "token: abcdefghijklmnopqrstuvwxyz", nil},
		{"secret ref name", "secretName: my-app-tls-secret-2024", nil},
		{"checksum", "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", nil},
		{"truncated jwt", "tokens look like eyJhbGciOi... with three parts", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Scan([]byte(tt.text)) {
				got = append(got, f.Kind)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Scan(%q) kinds (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestScanPosition(t *testing.T) {
	text := "# Notes\n\nsome text\r\n  key: " + fakeAWSID + "\n"
	got := Scan([]byte(text))
	want := []Finding{{Kind: "AWS access key", Line: 4, Column: 8}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzScan(f *testing.F) {
	f.Add([]byte("aws_access_key_id = " + fakeAWSID))
	f.Add([]byte("-----BEGIN RSA PRIVATE KEY-----\n" + pemBody))
	f.Add([]byte("postgres://app:S3cr3tPassw0rd@db/app\r\npassword: x"))
	f.Add([]byte("data:image/png;base64,AAAA password=abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := strings.Count(string(b), "\n") + 1
		for _, f := range Scan(b) {
			if f.Line < 1 || f.Line > lines || f.Column < 1 || f.Kind == "" {
				t.Fatalf("bad finding %+v", f)
			}
		}
	})
}

func BenchmarkScan(b *testing.B) {
	text := []byte(strings.Repeat("Some ordinary prose about tokens, keys and passwords = none.\n", 2000))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}
