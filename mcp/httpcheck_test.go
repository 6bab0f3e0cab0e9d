package mcp

import (
	"net/http"
	"strings"
	"testing"
)

// TestHTTPStrictAsStdio: within a valid session, the messages stdio
// answers with -32600 get a 400 carrying the same -32600 over HTTP, where
// the SDK alone would answer 1.5 as id 1, an id past 2^63 as a negative
// one, a batch, and 202 to a message that is neither request nor response.
// The requests carry no Mcp-Protocol-Version header, as the attack did.
func TestHTTPStrictAsStdio(t *testing.T) {
	s := newSpace(t)
	url, readTok, _ := httpServer(t, s, HTTPOptions{})
	auth := map[string]string{"Authorization": "Bearer " + readTok}
	code, body, hdr := post(t, url, auth, []byte(initBody))
	sid := hdr.Get("Mcp-Session-Id")
	if code != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %q, session %q", code, body, sid)
	}
	auth["Mcp-Session-Id"] = sid
	if code, body, _ := post(t, url, auth, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %q", code, body)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, `"id":null`},
		{"id past 2^63", `{"jsonrpc":"2.0","id":9223372036854775809,"method":"tools/list"}`, `"id":null`},
		{"batch", `[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`, "batches are not supported"},
		{"neither method nor result", `{"jsonrpc":"2.0","id":9}`, `"id":9`},
	} {
		code, body, _ := post(t, url, auth, []byte(tc.body))
		if code != http.StatusBadRequest || !strings.Contains(body, `"code":-32600`) || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %.300q; want 400 with a -32600 error (%s)", tc.name, code, body, tc.want)
		}
	}
	// The session goes on.
	if code, body, _ := post(t, url, auth, []byte(`{"jsonrpc":"2.0","id":10,"method":"tools/list"}`)); code != http.StatusOK || !strings.Contains(body, ToolQuery) {
		t.Errorf("tools/list after the rejections: %d %q", code, body)
	}
}
