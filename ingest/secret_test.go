package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// fakeAWSID is built by concatenation so that this file does not itself
// look like it leaks a key to other scanners. It is not real.
var fakeAWSID = "AKIA" + "Z2QX7RTLM4KD9PWB"

func TestCheckSecrets(t *testing.T) {
	if err := checkSecrets("sources/ok.md", []byte("nothing to see")); err != nil {
		t.Fatalf("clean text: %v", err)
	}
	err := checkSecrets("sources/x.md", []byte("a\nb\naws_access_key_id = "+fakeAWSID+"\n"))
	var se *SecretError
	if !errors.As(err, &se) {
		t.Fatalf("want *SecretError, got %v", err)
	}
	if want := "ingest sources/x.md: refusing secret (AWS access key) at line 3"; err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
	if strings.Contains(err.Error(), fakeAWSID) {
		t.Error("error message leaks the secret")
	}
}

// TestScanSecretsCorpus runs the gate over real Markdown nobody here wrote:
// the Go wiki, the Kubernetes community repository and an engineering
// playbook (1,372 files).
//
// What the scan found while the rules were tuned, hit by hit:
//   - 60 "secret assignment" hits, all Zoom invitation links in
//     k8s-community READMEs and meeting notes (https://zoom.us/j/N?pwd=...).
//     The pwd parameter is a hashed meeting passcode that the community
//     publishes on purpose: a false positive for our purposes, now skipped
//     (only for a pwd query parameter; ?token= and ?access_token= still count).
//   - 2 "bearer token" hits in contributors/devel/sig-architecture/
//     api-conventions.md (lines 1629 and 1635): a curl transcript with
//     "Authorization: Bearer WhCDvq4V...". It is a documentation example,
//     but nothing in the text says so and it is indistinguishable from a
//     live token, so refusing it is the right call: these are the two
//     expected hits below.
//   - 3 "password" hits in the playbook corpus,
//     developer-experience/fake-services-inner-loop.md (lines 45, 55, 96):
//     "password": "superSecure1" in a fake service's JSON. Made up for the
//     page, but a word and a digit is what many real passwords are, so
//     refusing it is the price of catching short passwords.
//   - Nothing else: no private key bodies (the corpus shows none), no
//     provider keys, no credentialed URLs with real-looking passwords.
//
// Any other hit is a new false positive (or a real leak) worth a look.
func TestScanSecretsCorpus(t *testing.T) {
	root := spacegen.Corpora()
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not present: %v", err)
	}
	expected := map[string]string{
		"k8s-community/contributors/devel/sig-architecture/api-conventions.md:1629": "bearer token",
		"k8s-community/contributors/devel/sig-architecture/api-conventions.md:1635": "bearer token",
		"playbook/developer-experience/fake-services-inner-loop.md:45":              "password",
		"playbook/developer-experience/fake-services-inner-loop.md:55":              "password",
		"playbook/developer-experience/fake-services-inner-loop.md:96":              "password",
	}
	files, hits := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, f := range secret.Scan(b) {
			hits++
			key := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), f.Line)
			if expected[key] == f.Kind {
				continue
			}
			line := strings.Split(string(b), "\n")[f.Line-1]
			t.Errorf("unexpected hit %s:%d %s: %.120s", rel, f.Column, f.Kind, strings.TrimSpace(line))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scanned %d files, %d hits (%d expected)", files, hits, len(expected))
}

// BenchmarkSecretGateCorpora scans the real corpora once per op, for the
// gate's speed in docs/secrets.md.
func BenchmarkSecretGateCorpora(b *testing.B) {
	root := spacegen.Corpora()
	if root == "" {
		b.Skip("corpus not present")
	}
	var files [][]byte
	var total int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		files = append(files, data)
		total += int64(len(data))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	for b.Loop() {
		for _, f := range files {
			secret.Scan(f)
		}
	}
}
