package web

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EBrowseClearance: in a real browser on loopback, a person who has
// not signed in sees no SECRET page in a spoke, and gets "not found" for
// the page itself; signed in at /login with a SECRET token, the browser
// sends the token with every request and the same views show the page.
func TestE2EBrowseClearance(t *testing.T) {
	ctx, con := browser(t)
	base, _, high, _ := clearanceSpace(t)
	body := func() string {
		return eval[string](t, ctx, `document.querySelector("main").textContent`)
	}
	do(t, ctx, "open the spoke", chromedp.Navigate(base+"/topics/operations.md"), chromedp.WaitVisible(chromedp.CSS(`#page-body a[href="/summaries/relay-maintenance.md"]`)))
	if b := body(); strings.Contains(b, "Nightjar") {
		t.Errorf("the spoke names the SECRET page to a browser that has not signed in:\n%s", b)
	}
	if f := eval[string](t, ctx, `document.querySelector("footer").textContent`); !strings.Contains(f, "UNCLASSIFIED pages only") {
		t.Errorf("footer: %q", f)
	}
	do(t, ctx, "open the SECRET page", chromedp.Navigate(base+"/sources/nightjar-rollout.md"), chromedp.WaitReady(chromedp.CSS(`footer`)))
	if b := body(); !strings.Contains(b, "no such page") || strings.Contains(b, "ferrous") {
		t.Errorf("the SECRET page, not signed in:\n%s", b)
	}
	con.take() // its 404

	u, err := url.Parse(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("erin", high)
	do(t, ctx, "sign in", chromedp.Navigate(u.String()), chromedp.WaitReady(chromedp.CSS(`footer`)))
	do(t, ctx, "open the spoke signed in", chromedp.Navigate(base+"/topics/operations.md"), chromedp.WaitVisible(chromedp.CSS(`#page-body a[href="/summaries/nightjar-rollout.md"]`)))
	do(t, ctx, "follow it to the SECRET summary", chromedp.Click(chromedp.CSS(`#page-body a[href="/summaries/nightjar-rollout.md"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#provenance [data-field=kind]`)))
	if b := body(); !strings.Contains(b, "Nightjar") {
		t.Errorf("the SECRET page, signed in with a SECRET token:\n%s", b)
	}
	if f := eval[string](t, ctx, `document.querySelector("footer").textContent`); !strings.Contains(f, "reading as auditor, pages up to SECRET") {
		t.Errorf("footer signed in: %q", f)
	}
	for _, m := range con.take() {
		if strings.Contains(m, "401") {
			continue // the challenge of /login before the browser sends the token
		}
		if strings.Contains(m, "error") || strings.Contains(m, "exception") {
			t.Errorf("browser console: %s", m)
		}
	}
}
