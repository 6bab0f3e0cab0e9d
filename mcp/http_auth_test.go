package mcp

import (
	"bytes"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestHTTPTokenStoreUnreadable: a corrupt token file is the server's
// problem; a caller who has not authenticated learns that, not the
// server's paths, which go to the log.
func TestHTTPTokenStoreUnreadable(t *testing.T) {
	s := newSpace(t)
	var log bytes.Buffer
	url, readTok, _ := httpServer(t, s, HTTPOptions{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	path := OpenTokens(s).Path()
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, body, _ := post(t, url, map[string]string{"Authorization": "Bearer " + readTok}, []byte(initBody))
	if code != http.StatusInternalServerError || !strings.Contains(body, "token store") {
		t.Errorf("status %d %q, want 500 saying the token store is unreadable", code, body)
	}
	for _, leak := range []string{path, s.Dir(), ".git", TokensFile} {
		if strings.Contains(body, leak) {
			t.Errorf("the response names %q: %q", leak, body)
		}
	}
	if !strings.Contains(log.String(), TokensFile) {
		t.Errorf("the log does not say which file: %q", log.String())
	}
}

// TestHTTPFailedAuthLimited: failed authentications count against the
// client's address, so tokens cannot be guessed at the request rate; once
// they are spent even a valid token waits, and successes cost nothing.
func TestHTTPFailedAuthLimited(t *testing.T) {
	s := newSpace(t)
	url, readTok, _ := httpServer(t, s, HTTPOptions{Rate: -1})
	good := map[string]string{"Authorization": "Bearer " + readTok}
	bad := map[string]string{"Authorization": "Bearer pt_guess"}
	for i := range 2 * authFailureBurst {
		if code, body, _ := post(t, url, good, []byte(initBody)); code != http.StatusOK {
			t.Fatalf("valid token, request %d: %d %q", i, code, body)
		}
	}
	for i := range authFailureBurst {
		if code, body, _ := post(t, url, bad, []byte(initBody)); code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d %q, want 401", i, code, body)
		}
	}
	for _, hdr := range []map[string]string{bad, good} {
		code, body, h := post(t, url, hdr, []byte(initBody))
		if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(body, "failed authentications") {
			t.Errorf("after %d failures (%s): %d %q, want 429 with Retry-After", authFailureBurst, hdr["Authorization"], code, body)
		}
	}
}
