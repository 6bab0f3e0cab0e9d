package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pt serve pushes at exit what is not on the host yet, whoever wrote it:
// here a pt ingest run on the same clone while the server runs.
func TestServePushesOtherWritersBatchesAtExit(t *testing.T) {
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "dana", "GIT_AUTHOR_EMAIL": "dana@example.com", "GIT_COMMITTER_NAME": "dana", "GIT_COMMITTER_EMAIL": "dana@example.com", "HOME": t.TempDir()} {
		t.Setenv(k, v)
	}
	ctx := context.Background()
	dir := t.TempDir()
	kb, host := filepath.Join(dir, "kb"), filepath.Join(dir, "host.git")
	pt := func(stdin io.Reader, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(ctx, args, stdin, &out, &errb); code != 0 {
			t.Fatalf("pt %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return errb.String()
	}
	pt(strings.NewReader(""), "init", kb, "--name", "team")
	gitOut(t, dir, "init", "-q", "--bare", "--initial-branch=main", host)
	gitOut(t, kb, "remote", "add", "origin", host)
	if err := os.WriteFile(filepath.Join(kb, "kb.yaml"), []byte("name: team\nremote: origin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, kb, "commit", "-qam", "name the remote")
	pt(strings.NewReader(""), "--kb", kb, "sync")

	stdin, feed := io.Pipe()
	answers, stdout := io.Pipe()
	served := make(chan string)
	go func() {
		var errb bytes.Buffer
		run(ctx, []string{"--kb", kb, "serve", "--sync-every", "0"}, stdin, stdout, &errb)
		stdout.Close()
		served <- errb.String()
	}()
	// The server is up once it has answered: only then does the ingest run.
	go io.WriteString(feed, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"\n")
	if line, err := bufio.NewReader(answers).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1,"result"`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	go io.Copy(io.Discard, answers)
	pt(strings.NewReader("Decided: retries carry idempotency keys.\n"), "--kb", kb, "ingest", "-", "--title", "Retry keys", "--approved-by", "dana")
	feed.Close()
	if log := <-served; !strings.Contains(log, "pushed 1") {
		t.Errorf("serve's log does not show the push: %q", log)
	}
	if local, remote := gitOut(t, kb, "rev-parse", "HEAD"), gitOut(t, host, "rev-parse", "main"); local != remote {
		t.Errorf("host at %s, clone at %s: the CLI's batch was not pushed at exit", remote, local)
	}
}
