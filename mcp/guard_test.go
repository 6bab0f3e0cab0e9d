package mcp

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGuardHost: the site beside MCP gets the same Host and Origin checks.
func TestGuardHost(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h, err := GuardHost("127.0.0.1:7324", nil, ok)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:7324", "", http.StatusTeapot},
		{"localhost:7324", "http://localhost:7324", http.StatusTeapot},
		{"evil.example:7324", "", http.StatusForbidden},
		{"127.0.0.1:7324", "http://evil.example", http.StatusForbidden},
		{"127.0.0.1:7324", "null", http.StatusForbidden},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("Host %q Origin %q: %d, want %d", c.host, c.origin, w.Code, c.want)
		}
	}
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "localhost:1": true, "0.0.0.0:1": false, "10.0.0.1:1": false, "bad": false} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}
