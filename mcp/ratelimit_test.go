package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/wiki"
)

// localServer serves s over streamable HTTP on a loopback port with
// --auth none, and returns its endpoint.
func localServer(t testing.TB, s *wiki.Space, opts HTTPOptions) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	opts.Addr = srv.Listener.Addr().String()
	opts.Auth = AuthNone
	h, err := Handler(NewServer(s, Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + DefaultPath
}

// localClient connects an SDK client over streamable HTTP without a token.
func localClient(t testing.TB, url, name string) *sdk.ClientSession {
	t.Helper()
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestHTTPRatePerToken: the limit is the token's, not the address's: a
// token that spent its burst is refused while another token from the same
// address is served.
func TestHTTPRatePerToken(t *testing.T) {
	s := newSpace(t)
	url, readTok, writeTok := httpServer(t, s, HTTPOptions{Rate: 0.01, Burst: 3})
	reader := map[string]string{"Authorization": "Bearer " + readTok}
	for i := range 3 {
		if code, body, _ := post(t, url, reader, []byte(initBody)); code != http.StatusOK {
			t.Fatalf("reader, request %d within the burst: %d %q", i, code, body)
		}
	}
	code, body, hdr := post(t, url, reader, []byte(initBody))
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(body, `token "reader"`) {
		t.Fatalf("reader over its burst: %d %q, want 429 naming the token", code, body)
	}
	writer := map[string]string{"Authorization": "Bearer " + writeTok}
	if code, body, _ := post(t, url, writer, []byte(initBody)); code != http.StatusOK {
		t.Errorf("another token from the same address: %d %q, want 200", code, body)
	}
}

// TestHTTPLocalAgentsNotCapped: on loopback without tokens, each agent's
// session has a bucket of its own, so eight agents together send far more
// than one bucket holds, and none is refused.
func TestHTTPLocalAgentsNotCapped(t *testing.T) {
	s := newSpace(t)
	const agents, pings, burst = 8, 40, 50
	url := localServer(t, s, HTTPOptions{Rate: 0.01, Burst: burst})
	sessions := make([]*sdk.ClientSession, agents)
	for i := range sessions {
		sessions[i] = localClient(t, url, "agent")
	}
	var wg sync.WaitGroup
	errs := make(chan error, agents)
	for _, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range pings {
				if err := cs.Ping(context.Background(), nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%d agents × %d pings (one bucket holds %d): %v", agents, pings, burst, err)
	}
	// Each session is still limited: one that spends its own bucket is
	// refused, and the others are not.
	hog, other := sessions[0], sessions[1]
	var err error
	for range burst {
		if err = hog.Ping(context.Background(), nil); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Errorf("a session past its own burst: %v, want Too Many Requests", err)
	}
	if err := other.Ping(context.Background(), nil); err != nil {
		t.Errorf("another session after one spent its bucket: %v", err)
	}
}
