package web

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/mcp"
	"github.com/ptwiki/pt/wiki"
)

// clearanceSpace is a space with an UNCLASSIFIED and a SECRET source in
// one topic, linted, served on loopback with tokens: anonymous browsing
// allowed, an UNCLASSIFIED token and a SECRET one. It returns the site's
// URL, the two secrets and the SECRET source's batch.
func clearanceSpace(t *testing.T) (base, low, high, batch string) {
	t.Helper()
	ctx := context.Background()
	s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: "ops", When: t0, Clock: wiki.SteppingClock(t0, time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	dana := wiki.Author{Kind: content.AuthorHuman, Name: "dana"}
	if _, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Relay maintenance", Topics: []string{"operations"}, ApprovedBy: "dana", Author: dana,
		Body: []byte("# Relay maintenance\n\nThe relays are switched by hand during maintenance windows.\n")}); err != nil {
		t.Fatal(err)
	}
	rep, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Nightjar rollout", Topics: []string{"operations"}, ApprovedBy: "dana", Author: dana,
		Body: []byte("---\nclassification: SECRET\n---\n# Nightjar\n\nThe nightjar rollout switches the ferrous relays in the vault at dawn.\n")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lint.Run(ctx, s, lint.Options{}); err != nil {
		t.Fatal(err)
	}
	ts := mcp.OpenTokens(s)
	if low, _, err = ts.Create("reader", mcp.ScopeRead, t0); err != nil {
		t.Fatal(err)
	}
	if high, _, err = ts.Issue(mcp.TokenSpec{Name: "auditor", For: "erin", Scope: mcp.ScopeRead, Clearance: "secret"}, t0); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, s, Options{Tokens: ts, Anonymous: true})
	return srv.URL, low, high, rep.Batch
}

// getAs fetches a URL as a browser signed in with secret ("" for none).
func getAs(t *testing.T, u, secret string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if secret != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("me:"+secret)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestClearance: every view applies the reader's clearance as the MCP
// tools do. A browser on loopback without a token reads UNCLASSIFIED
// pages, as does an UNCLASSIFIED token; a SECRET token reads the SECRET
// page. Each view below names the SECRET page to the SECRET token, so
// that its absence for the others means something.
func TestClearance(t *testing.T) {
	base, low, high, batch := clearanceSpace(t)
	views := []string{
		"/topics/operations.md", "/topics/operations.md?source", "/log", "/", "/sources/", "/summaries/",
		"/batch/" + batch, "/search?q=" + url.QueryEscape("when are the ferrous relays switched at dawn"),
	}
	pages := []string{"/sources/nightjar-rollout.md", "/summaries/nightjar-rollout.md",
		"/sources/nightjar-rollout.md?history", "/sources/nightjar-rollout.md?source", "/sources/nightjar-rollout.md?diff=" + batch}
	named := func(body string) bool { return strings.Contains(strings.ToLower(body), "nightjar") }
	for _, v := range append(views, pages...) {
		if code, body := getAs(t, base+v, high); code != 200 || !named(body) {
			t.Errorf("%s as the SECRET token: %d, names the SECRET page: %v", v, code, named(body))
		}
	}
	for who, secret := range map[string]string{"no token": "", "UNCLASSIFIED token": low} {
		for _, v := range views {
			code, body := getAs(t, base+v, secret)
			if code != 200 || named(body) {
				t.Errorf("%s as %s: %d, names the SECRET page: %v", v, who, code, named(body))
			}
		}
		if _, body := getAs(t, base+"/topics/operations.md", secret); !strings.Contains(body, "relay-maintenance") {
			t.Errorf("the spoke as %s lost the UNCLASSIFIED page:\n%s", who, body)
		}
		for _, p := range pages {
			if code, body := getAs(t, base+p, secret); code != http.StatusNotFound || named(body) && !strings.Contains(body, "not found") {
				t.Errorf("%s as %s: %d, want 404", p, who, code)
			}
		}
	}
	// Not found reads the same for a hidden page as for a missing one.
	_, hiddenBody := getAs(t, base+"/sources/nightjar-rollout.md", low)
	_, missingBody := getAs(t, base+"/sources/no-such-page.md", low)
	if strings.ReplaceAll(hiddenBody, "nightjar-rollout", "no-such-page") != missingBody {
		t.Errorf("a hidden page's 404 differs from a missing page's:\n%s\n---\n%s", hiddenBody, missingBody)
	}
	// The layout says who reads, and /login asks a browser for a token.
	if _, body := getAs(t, base+"/", ""); !strings.Contains(body, "UNCLASSIFIED pages only") || !strings.Contains(body, `href="/login"`) {
		t.Errorf("the footer does not say what an anonymous reader sees")
	}
	if _, body := getAs(t, base+"/", high); !strings.Contains(body, "reading as auditor, pages up to SECRET") {
		t.Errorf("the footer does not name the token")
	}
	if code, _ := getAs(t, base+"/login", ""); code != http.StatusUnauthorized {
		t.Errorf("/login without a token: %d, want 401", code)
	}
	if code, _ := getAs(t, base+"/", "pt_wrong"); code != http.StatusUnauthorized {
		t.Errorf("a wrong token on loopback: %d, want 401", code)
	}
}
