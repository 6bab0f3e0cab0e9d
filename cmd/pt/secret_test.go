package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretGateOnTheCommandLine: pt ingest and pt consult --answer refuse
// the secret shapes the gate used to miss, and write nothing. The fake
// values are built by concatenation so that this file does not look like
// a leak to other scanners.
func TestSecretGateOnTheCommandLine(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "dana")
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	kb := filepath.Join(dir, "kb")
	if code, _, stderr := ptRun(t, "", "init", kb); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	head := gitOut(t, kb, "rev-parse", "HEAD")
	shapes := map[string]string{
		"gcp":      `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\n` + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + `BKcwggSjAgEAAoIBAQDq7Pz3Xv9mK2LwR8tYb5\n-----END PRIVATE KEY-----\n"}`,
		"azure":    "AccountName=acme;AccountKey=" + "q8Vt3Lr9ZpKx2WmN7bYcJ4hGd6FsA1eT" + "uR5oXp+/k9Xy2Zq7Lm4Np8Rs1Tv6Wu3A==",
		"password": "password: \"" + "Tr0ub4d" + "!x\"",
		"pypi":     "twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc" + "CJDk3ZWQxYjM1LTk2NjUtNGI4ZS04MjM2LWYyMDM0MGY1",
		"discord":  "client.run('" + "MTA5ODc2NTQzMjEwOTg3NjU0Mw" + ".Gx7kQ2.Zq8Lm4Np8Rs1Tv6Wu3AbCdEfGhIjKlMnOpQrSt')",
	}
	for name, text := range shapes {
		f := filepath.Join(dir, name+".md")
		if err := os.WriteFile(f, []byte("# Notes\n\n"+text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := ptRun(t, "", "--kb", kb, "ingest", f, "--title", "Notes "+name, "--approved-by", "dana")
		if code != 1 || !strings.Contains(stderr, "refusing secret") {
			t.Errorf("pt ingest with a %s secret: exit %d, %s", name, code, stderr)
		}
		code, _, stderr = ptRun(t, "", "--kb", kb, "consult", "How is the ledger deployed?", "--answer", f, "--cite", "index.md")
		if code != 1 || !strings.Contains(stderr, "consult: answer: refusing secret") {
			t.Errorf("pt consult --answer with a %s secret: exit %d, %s", name, code, stderr)
		}
	}
	if got := gitOut(t, kb, "rev-parse", "HEAD"); got != head {
		t.Errorf("a refused secret moved HEAD %s -> %s", head, got)
	}
}
