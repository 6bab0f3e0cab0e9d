package web

import (
	"context"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/mcp"
)

// TestFindingsView: every open finding of the last lint run, filterable
// by check, each linked to its page and line.
func TestFindingsView(t *testing.T) {
	s, _ := fixture(t, false)
	srv := serve(t, s, Options{})
	ctx := context.Background()
	head, _ := s.Head(ctx)
	all, err := lint.Findings(ctx, s, head)
	if err != nil {
		t.Fatal(err)
	}
	byCheck := map[string]int{}
	open := 0
	for _, f := range all {
		if f.Open() {
			open++
			byCheck[f.Check]++
		}
	}
	if byCheck["broken_crossref"] == 0 || byCheck["provenance_drift"] == 0 {
		t.Fatalf("the fixture lacks findings: %v", byCheck)
	}
	rows := regexp.MustCompile(`<tr data-check="([a-z_]+)">`)
	if n := len(rows.FindAllString(mustGet(t, srv.URL+"/findings"), -1)); n != open {
		t.Errorf("/findings lists %d, want %d open", n, open)
	}
	for check, n := range byCheck {
		body := mustGet(t, srv.URL+"/findings?check="+check)
		got := rows.FindAllStringSubmatch(body, -1)
		if len(got) != n {
			t.Errorf("%s: %d rows, want %d", check, len(got), n)
		}
		for _, g := range got {
			if g[1] != check {
				t.Errorf("filter %s shows a %s", check, g[1])
			}
		}
	}
	body := mustGet(t, srv.URL+"/findings?check=broken_crossref")
	for _, f := range all {
		if f.Check == "broken_crossref" && f.Open() && !strings.Contains(body, `href="`+pageURL(f.Path)+`?source#L`) {
			t.Errorf("finding on %s is not linked to its line", f.Path)
		}
	}
}

// TestAgentsView: the agent's batches with their approvers, and its
// consults with the verdicts and the reasons of those skipped.
func TestAgentsView(t *testing.T) {
	s, _ := fixture(t, false)
	srv := serve(t, s, Options{})
	body := mustGet(t, srv.URL+"/agents?days=30")
	rs, err := ingest.ReadConsultLog(s, time.Time{})
	if err != nil || len(rs) != 4 {
		t.Fatalf("consult log: %d records, %v", len(rs), err)
	}
	for _, r := range rs {
		if r.Verdict == ingest.VerdictSkipped && !strings.Contains(body, escape(r.Reason)) {
			t.Errorf("skipped consult's reason missing: %s", r.Reason)
		}
		if r.Verdict == ingest.VerdictFiled && !strings.Contains(body, `href="/batch/`+r.Batch+`"`) {
			t.Errorf("filed consult's batch %s not linked", r.Batch)
		}
	}
	if !strings.Contains(body, "2 filed, 2 skipped") {
		t.Errorf("verdict counts missing")
	}
	// The agent's ingest, approved by mei, and its two file-backs.
	batches := body[strings.Index(body, "Batches written by agents"):strings.Index(body, "<h2>Consults")]
	if n := strings.Count(batches, `<td class="when">`); n != 3 {
		t.Errorf("%d agent batches, want 3", n)
	}
	if !strings.Contains(batches, "ingest: Refunds share the write queue") || !strings.Contains(batches, "<td>mei</td>") {
		t.Errorf("the agent's ingest or its approver is missing")
	}
	// A window before anything happened is empty.
	s.SetClock(func() time.Time { return t0.Add(400 * 24 * time.Hour) })
	defer s.SetClock(nil)
	if body := mustGet(t, srv.URL+"/agents?days=1"); !strings.Contains(body, "None in this window") || !strings.Contains(body, "No consults recorded") {
		t.Errorf("a window after all activity is not empty")
	}
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestSearchView: the answer of query_knowledge_base with its excerpts,
// their pages and revisions; an insufficient one names the nearest pages.
func TestSearchView(t *testing.T) {
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})
	body := mustGet(t, srv.URL+"/search?q=how+do+I+replay+the+ledger+write+queue")
	if !strings.Contains(body, `data-sufficient="true"`) {
		t.Fatalf("not sufficient")
	}
	cites := regexp.MustCompile(`<code>([^@<]+)@([0-9a-f]{12})</code>`).FindAllStringSubmatch(body, -1)
	if len(cites) == 0 {
		t.Fatal("no excerpts")
	}
	for _, c := range cites {
		if blob := gitRun(t, dir, "rev-parse", "HEAD:"+c[1]); blob[:12] != c[2] {
			t.Errorf("%s cited at %s, git says %s", c[1], c[2], blob[:12])
		}
	}
	body = mustGet(t, srv.URL+"/search?q=penguin+migration+routes+over+the+Antarctic+ledger+glacier")
	if !strings.Contains(body, `data-sufficient="false"`) || !strings.Contains(body, `id="nearest"`) {
		t.Errorf("an unanswerable question: no insufficient signal or nearest pages")
	}
	if code, _ := get(t, srv.URL+"/search?q="+strings.Repeat("x", 2000)); code != 400 {
		t.Errorf("an overlong question: %d, want 400", code)
	}
}

// TestGuards: Host and Origin are checked as for MCP, only GET and HEAD
// are served, and off loopback a token is needed.
func TestGuards(t *testing.T) {
	s, _ := fixture(t, false)
	srv := serve(t, s, Options{})
	do := func(method, path string, hdr map[string]string) int {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 403 && !strings.Contains(csp, "script-src 'none'") {
			t.Errorf("%s %s: CSP %q", method, path, csp)
		}
		return resp.StatusCode
	}
	for _, c := range []struct {
		method, path string
		hdr          map[string]string
		want         int
	}{
		{"GET", "/", nil, 200},
		{"HEAD", "/log", nil, 200},
		{"GET", "/", map[string]string{"Host": "evil.example"}, 403},
		{"GET", "/", map[string]string{"Origin": "http://evil.example"}, 403},
		{"POST", "/search", nil, 405},
		{"GET", "/../kb.yaml", nil, 400},
		{"GET", "/kb.yaml", nil, 404},
		{"GET", "/.git/config", nil, 400},
		{"GET", "/pages/none.md", nil, 404},
	} {
		if got := do(c.method, c.path, c.hdr); got != c.want {
			t.Errorf("%s %s %v: %d, want %d", c.method, c.path, c.hdr, got, c.want)
		}
	}
	if _, err := New(s, Options{Addr: "0.0.0.0:7324"}); err == nil {
		t.Error("a non-loopback address without tokens was accepted")
	}
}

// TestTokens: with tokens, a request needs one, as a bearer token or as a
// browser's Basic password; a revoked one is refused.
func TestTokens(t *testing.T) {
	s, _ := fixture(t, false)
	ts := mcp.OpenTokens(s)
	secret, _, err := ts.Create("web-reader", mcp.ScopeRead, t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Revoke("web-reader") })
	srv := serve(t, s, Options{Tokens: ts})
	try := func(auth string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+"/", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := try(""); r.StatusCode != 401 || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Basic") {
		t.Errorf("no token: %d %q", r.StatusCode, r.Header.Get("WWW-Authenticate"))
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("anyone:"+secret))
	for _, auth := range []string{"Bearer " + secret, basic} {
		if r := try(auth); r.StatusCode != 200 {
			t.Errorf("%s…: %d", auth[:8], r.StatusCode)
		}
	}
	if r := try("Bearer nope"); r.StatusCode != 401 {
		t.Errorf("a wrong token: %d", r.StatusCode)
	}
	if err := ts.Revoke("web-reader"); err != nil {
		t.Fatal(err)
	}
	if r := try(basic); r.StatusCode != 401 {
		t.Errorf("a revoked token: %d", r.StatusCode)
	}
}
