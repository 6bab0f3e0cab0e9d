package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ptwiki/pt/wiki"
)

// serve starts the site of s on a loopback port, with opts (Addr is set
// to the port's address).
func serve(t testing.TB, s *wiki.Space, opts Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	opts.Addr = srv.Listener.Addr().String()
	site, err := New(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	h, err := site.Handler()
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// get fetches a URL and returns the status and the body.
func get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// mustGet fetches a URL that must answer 200.
func mustGet(t testing.TB, url string) string {
	t.Helper()
	code, body := get(t, url)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", url, code, body)
	}
	return body
}
