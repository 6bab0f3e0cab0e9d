package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a stderr that a test reads while pt writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// noStdin fails a test that reads it: pt serve --web alone speaks no stdio.
type noStdin struct{ t *testing.T }

func (n noStdin) Read([]byte) (int, error) {
	n.t.Error("pt serve --web read stdin")
	return 0, io.EOF
}

// TestServeWeb: pt serve --web alone serves the web view and no stdio
// until it is stopped; beside --http both are served.
func TestServeWeb(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	kb := filepath.Join(t.TempDir(), "kb")
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"init", kb, "--name", "team"}, strings.NewReader(""), io.Discard, &errb); code != 0 {
		t.Fatalf("pt init: %s", errb.String())
	}
	served := regexp.MustCompile(`(MCP at|web view of \S+ at) (http://[^\s/]+)`)
	for _, args := range [][]string{
		{"serve", "--web", "127.0.0.1:0", "--index-every", "0"},
		{"serve", "--web", "127.0.0.1:0", "--http", "127.0.0.1:0", "--auth", "none", "--index-every", "0"},
	} {
		ctx, stop := context.WithCancel(context.Background())
		stderr := &syncBuffer{}
		done := make(chan int)
		go func() { done <- run(ctx, append([]string{"--kb", kb}, args...), noStdin{t}, io.Discard, stderr) }()
		want := 1 + strings.Count(strings.Join(args, " "), "--http")
		var urls map[string]string
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			urls = map[string]string{}
			for _, m := range served.FindAllStringSubmatch(stderr.String(), -1) {
				urls[m[1][:3]] = m[2]
			}
			if len(urls) == want {
				break
			}
			if time.Now().After(deadline) {
				stop()
				t.Fatalf("pt %v: not serving after 20s: %s", args, stderr.String())
			}
		}
		resp, err := http.Get(urls["web"] + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `<a href="/index.md">index.md</a>`) {
			t.Errorf("pt %v: the hub: %d\n%s", args, resp.StatusCode, body)
		}
		if mcpURL, ok := urls["MCP"]; ok {
			resp, err := http.Post(mcpURL+"/mcp", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusNotFound {
				t.Errorf("the MCP endpoint beside the web view: %d", resp.StatusCode)
			}
		}
		stop()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("pt %v: exit %d: %s", args, code, stderr.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("pt %v did not stop", args)
		}
	}
}

// TestServeWebRefusesBadAddress: a bad --web address is a usage error and
// nothing is served.
func TestServeWebRefusesBadAddress(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	kb := filepath.Join(t.TempDir(), "kb")
	if code := run(context.Background(), []string{"init", kb, "--name", "team"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
		t.Fatal("pt init failed")
	}
	for _, addr := range []string{"", "nonsense"} {
		var errb bytes.Buffer
		code := run(context.Background(), []string{"--kb", kb, "serve", "--web", addr}, noStdin{t}, io.Discard, &errb)
		if code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || !strings.Contains(errb.String(), "--web") {
			t.Errorf("--web %q: exit %d, %q", addr, code, errb.String())
		}
	}
}
