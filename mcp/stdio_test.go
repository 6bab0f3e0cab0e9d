package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A line of valid JSON that is not one JSON-RPC 2.0 message is answered
// with an invalid-request error, and the session goes on: the SDK would end
// it, losing the requests still being handled. Ids spelled otherwise than
// the SDK writes them back ("req\/1", 1.0) are still matched to their
// answers, so the server stops as soon as its input ends.
func TestStdioSurvivesInvalidMessages(t *testing.T) {
	s := newSpace(t)
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{}`,
		`[]`,
		`null`,
		`"x"`,
		`{"jsonrpc":"1.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":6,"method":7}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":"req\/1","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"kb_log","arguments":{}}}`,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	start := time.Now()
	if err := ServeStdio(ctx, NewServer(s, Options{}), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("the server kept running %v after its input ended", time.Since(start))
	}
	invalid := 0
	answered := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID    any `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		if m.Error != nil && m.Error.Code == -32600 {
			invalid++
			continue
		}
		answered[strings.Trim(string(must(json.Marshal(m.ID))), `"`)] = true
	}
	if invalid != 11 {
		t.Errorf("%d invalid-request errors, want 11:\n%s", invalid, out.String())
	}
	for _, id := range []string{"0", "req/1", "1", "3"} {
		if !answered[id] {
			t.Errorf("request %s was not answered:\n%s", id, out.String())
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
