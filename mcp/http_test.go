package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/wiki"
)

// httpServer serves s over streamable HTTP on a loopback port with token
// auth, and returns its endpoint and a read and a write token.
func httpServer(t testing.TB, s *wiki.Space, opts HTTPOptions) (url, readTok, writeTok string) {
	t.Helper()
	ts := OpenTokens(s)
	var err error
	if readTok, _, err = ts.Create("reader", ScopeRead, when); err != nil {
		t.Fatal(err)
	}
	if writeTok, _, err = ts.Create("writer-bot", ScopeWrite, when); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	opts.Addr = srv.Listener.Addr().String()
	opts.Tokens = ts
	h, err := Handler(NewServer(s, Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + DefaultPath, readTok, writeTok
}

type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// httpClient connects an SDK client over streamable HTTP with a token.
func httpClient(t testing.TB, url, token, name string) *sdk.ClientSession {
	t.Helper()
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// post sends one raw JSON-RPC body and returns the status and body.
func post(t testing.TB, url string, hdr map[string]string, body []byte) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPAuth(t *testing.T) {
	s := newSpace(t)
	url, readTok, writeTok := httpServer(t, s, HTTPOptions{})
	head := git(t, s, "rev-parse", "HEAD")

	tests := []struct {
		name string
		hdr  map[string]string
		want int
		say  string
	}{
		{"no token", nil, 401, "no bearer token"},
		{"wrong token", map[string]string{"Authorization": "Bearer pt_nope"}, 401, "unknown or revoked"},
		{"read token", map[string]string{"Authorization": "Bearer " + readTok}, 200, ""},
		{"foreign origin", map[string]string{"Authorization": "Bearer " + readTok, "Origin": "https://evil.example"}, 403, "Origin"},
		{"null origin", map[string]string{"Authorization": "Bearer " + readTok, "Origin": "null"}, 403, "Origin"},
		{"loopback origin", map[string]string{"Authorization": "Bearer " + readTok, "Origin": "http://localhost:3000"}, 200, ""},
		{"rebound host", map[string]string{"Authorization": "Bearer " + readTok, "Host": "evil.example:80"}, 403, "Host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, hdr := post(t, url, tt.hdr, []byte(initBody))
			if code != tt.want || !strings.Contains(body, tt.say) {
				t.Errorf("status %d %q, want %d saying %q", code, body, tt.want, tt.say)
			}
			if ch := hdr.Get("WWW-Authenticate"); (code == 401) != strings.HasPrefix(ch, "Bearer ") {
				t.Errorf("status %d with WWW-Authenticate %q: a 401, and only a 401, challenges for a bearer token (RFC 6750)", code, ch)
			}
		})
	}

	// A read token reads, and is refused every write tool.
	rc := httpClient(t, url, readTok, "claims-to-be-someone")
	if res := call(t, rc, ToolQuery, map[string]any{"question": "idempotency keys"}); res.IsError {
		t.Errorf("read token cannot query: %s", textOf(res))
	}
	writeArgs := map[string]map[string]any{
		ToolIngest:    {"title": "x", "body": "y", "approved_by": "dana"},
		ToolRevert:    {"batch": "b-1", "approved_by": "dana"},
		ToolFileBack:  {"question": "q", "answer": "a", "citations": []string{"x.md"}},
		ToolSupersede: {"page": "sources/a.md", "by": "sources/b.md"},
		ToolRetract:   {"page": "sources/a.md", "reason": "wrong"},
		ToolObsolete:  {"page": "sources/a.md"},
		ToolArchive:   {"page": "sources/a.md"},
		ToolPropose:   {"title": "t", "body": "b", "citations": []string{"x.md"}},
	}
	for _, tool := range WriteTools {
		res := call(t, rc, tool, writeArgs[tool])
		if !res.IsError || !strings.Contains(textOf(res), "read scope") {
			t.Errorf("%s with a read token: %v %s", tool, res.IsError, textOf(res))
		}
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Fatalf("a read token wrote: HEAD %s -> %s", head, got)
	}

	// A write token writes, as the agent its token names (not the client's
	// self-chosen name).
	wc := httpClient(t, url, writeTok, "claims-to-be-someone")
	res := call(t, wc, ToolIngest, map[string]any{"title": "HTTP note", "body": "Spokes are regenerated on every batch.", "approved_by": "dana"})
	if res.IsError {
		t.Fatalf("write token: %s", textOf(res))
	}
	if msg := git(t, s, "log", "-1", "--format=%an|%B"); !strings.HasPrefix(msg, "writer-bot|") || !strings.Contains(msg, "Agent: writer-bot") {
		t.Errorf("commit not attributed to the token:\n%s", msg)
	}

	// A revoked token is refused from the next request on.
	if err := OpenTokens(s).Revoke("reader"); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := post(t, url, map[string]string{"Authorization": "Bearer " + readTok}, []byte(initBody)); code != 401 {
		t.Errorf("revoked token: status %d", code)
	}
}

func TestHTTPLimits(t *testing.T) {
	s := newSpace(t)
	url, _, writeTok := httpServer(t, s, HTTPOptions{Rate: 1, Burst: 3})
	auth := map[string]string{"Authorization": "Bearer " + writeTok}

	// 10 MB body: refused before it is read.
	big := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ingest_source","arguments":{"body":"` + strings.Repeat("a", 10<<20) + `"}}}`)
	code, body, _ := post(t, url, auth, big)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "too large") {
		t.Errorf("10 MB body: %d %q", code, body)
	}
	// Malformed JSON-RPC: an error, and the server keeps serving.
	code, body, _ = post(t, url, auth, []byte(`{"jsonrpc":"2.0","id":`))
	if code != http.StatusBadRequest {
		t.Errorf("malformed JSON-RPC: %d %q", code, body)
	}
	// The burst of three is spent after two more requests (the refused body
	// never reached the limiter); the next is refused with a Retry-After.
	for range 2 {
		if code, body, _ := post(t, url, auth, []byte(initBody)); code != 200 {
			t.Fatalf("within the burst: %d %q", code, body)
		}
	}
	code, body, hdr := post(t, url, auth, []byte(initBody))
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(body, "writer-bot") {
		t.Errorf("over the rate: %d %q %v", code, body, hdr)
	}
	time.Sleep(1100 * time.Millisecond)
	if code, body, _ := post(t, url, auth, []byte(initBody)); code != 200 {
		t.Errorf("after waiting: %d %q", code, body)
	}
}

// TestHTTPConcurrentWrites: N agents ingest at once over HTTP; every batch
// lands as its own commit and none is lost.
func TestHTTPConcurrentWrites(t *testing.T) {
	s := newSpace(t)
	url, readTok, writeTok := httpServer(t, s, HTTPOptions{})
	before, _ := strconv.Atoi(git(t, s, "rev-list", "--count", "HEAD"))
	const n = 10
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			cs := httpClient(t, url, writeTok, "agent")
			res := call(t, cs, ToolIngest, map[string]any{
				"title": fmt.Sprintf("Concurrent note %d", i), "approved_by": "dana",
				"body": fmt.Sprintf("Note %d: writers race on the branch and none is lost.", i),
			})
			if res.IsError {
				errs <- textOf(res)
			}
		}()
		go func() {
			defer wg.Done()
			cs := httpClient(t, url, readTok, "reader")
			if res := call(t, cs, ToolQuery, map[string]any{"question": "writers race on the branch"}); res.IsError {
				errs <- textOf(res)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	after, _ := strconv.Atoi(git(t, s, "rev-list", "--count", "HEAD"))
	if after != before+n {
		t.Errorf("commits %d -> %d, want +%d", before, after, n)
	}
	srcs := git(t, s, "ls-tree", "--name-only", "HEAD", "sources/")
	for i := range n {
		if !strings.Contains(srcs, fmt.Sprintf("concurrent-note-%d.md", i)) {
			t.Errorf("note %d lost", i)
		}
	}
	git(t, s, "fsck", "--strict")
}

// TestHTTPDisconnectMidCall: clients that hang up while their ingest runs
// leave whole batches or none, and the server keeps serving.
func TestHTTPDisconnectMidCall(t *testing.T) {
	s := newSpace(t)
	url, _, writeTok := httpServer(t, s, HTTPOptions{Rate: -1})
	auth := map[string]string{"Authorization": "Bearer " + writeTok}
	sid := rawSession(t, url, auth)
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ingest_source","arguments":{"title":"Dropped %d","approved_by":"dana","body":"A call whose client hung up, number %d."}}}`, 10+i, i, i)
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*3*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", auth["Authorization"])
			req.Header.Set("Mcp-Session-Id", sid)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	// Calls whose clients left go on in the server: wait until the branch
	// has stood still for a second (at most 20 s), so that none is still
	// writing when the test checks the repository and removes it.
	last, still := "", time.Now()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && time.Since(still) < time.Second; time.Sleep(50 * time.Millisecond) {
		if n := git(t, s, "rev-list", "--count", "HEAD"); n != last {
			last, still = n, time.Now()
		}
	}
	git(t, s, "fsck", "--strict")
	// Every ingest commit is whole: a source, its summary, the log entry.
	for _, c := range strings.Split(git(t, s, "log", "--format=%H", "--grep=^Batch-Kind: ingest$"), "\n") {
		files := git(t, s, "show", "--name-only", "--format=", c)
		if !strings.Contains(files, "sources/") || !strings.Contains(files, "summaries/") || !strings.Contains(files, "log.md") {
			t.Errorf("commit %s is not a whole batch:\n%s", c, files)
		}
	}
	cs := httpClient(t, url, writeTok, "after")
	if res := call(t, cs, ToolLog, map[string]any{"n": 1}); res.IsError {
		t.Errorf("server stopped serving: %s", textOf(res))
	}
}

// rawSession initializes a session with raw HTTP and returns its id.
func rawSession(t testing.TB, url string, hdr map[string]string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "data:") {
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("no session id: %d", resp.StatusCode)
	}
	n, _ := json.Marshal(map[string]string{"jsonrpc": "2.0", "method": "notifications/initialized"})
	h := map[string]string{"Mcp-Session-Id": sid}
	for k, v := range hdr {
		h[k] = v
	}
	post(t, url, h, n)
	return sid
}

func TestCheckListen(t *testing.T) {
	for _, tt := range []struct {
		addr, auth string
		ok         bool
	}{
		{"127.0.0.1:7323", AuthNone, true},
		{"localhost:7323", AuthNone, true},
		{"[::1]:7323", AuthNone, true},
		{"0.0.0.0:7323", AuthNone, false},
		{":7323", AuthNone, false},
		{"192.168.1.2:7323", AuthNone, false},
		{"0.0.0.0:7323", AuthToken, true},
		{"127.0.0.1:7323", "basic", false},
	} {
		if err := CheckListen(tt.addr, tt.auth); (err == nil) != tt.ok {
			t.Errorf("CheckListen(%q, %q) = %v", tt.addr, tt.auth, err)
		}
	}
}
