package web

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EBrowseSearchAudit drives a real browser over a real space as a
// reviewer would: the hub, a topic, a page whose provenance panel must
// agree with its frontmatter and git, its history, a question, the log
// and one batch's diff, the findings and the agents' activity. No page
// may write anything to the console.
func TestE2EBrowseSearchAudit(t *testing.T) {
	ctx, con := browser(t)
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})

	do(t, ctx, "open the hub", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#page-body a[href="/topics/ledger.md"]`)))
	shoot(t, ctx, "hub")
	do(t, ctx, "follow a topic", chromedp.Click(chromedp.CSS(`#page-body a[href="/topics/ledger.md"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#page-body a[href="/`+pathReplay+`"]`)))
	shoot(t, ctx, "topic")
	do(t, ctx, "follow the topic to a page", chromedp.Click(chromedp.CSS(`#page-body a[href="/`+pathReplay+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#provenance [data-field=kind]`)))
	shoot(t, ctx, "page")

	// The panel against the page's frontmatter and git.
	head, _ := s.Head(context.Background())
	pa, err := s.ReadPage(context.Background(), head, pathReplay)
	if err != nil {
		t.Fatal(err)
	}
	m := pa.Page.Meta
	text := func(sel string) string {
		return eval[string](t, ctx, `document.querySelector(`+jsString(sel)+`).textContent.replace(/\s+/g, " ").trim()`)
	}
	for sel, want := range map[string]string{
		"[data-field=kind]":        m.Kind,
		"[data-field=approved_by]": cmp.Or(m.Provenance.ApprovedBy, "—"), // a consult filed by an agent has no approver
		"[data-field=batch]":       m.Provenance.Batch,
		"[data-field=status]":      m.Status,
		"[data-field=durability]":  m.Durability,
		"[data-field=author]":      m.Author.Name + " agent",
		"[data-field=revision]":    gitRun(t, dir, "rev-parse", "HEAD:"+pathReplay)[:12],
	} {
		if got := text(sel); got != want {
			t.Errorf("%s: %q, frontmatter and git say %q", sel, got, want)
		}
	}
	if m.Kind != "synthesis" || m.Status != "active" || m.Author.Kind != "agent" {
		t.Errorf("the fixture's synthesis changed: %+v", m)
	}
	if b := gitRun(t, dir, "log", "-1", "--format=%(trailers:key=Batch-Id,valueonly)", "--", pathReplay); b != m.Provenance.Batch {
		t.Errorf("git log says batch %s wrote the page, the panel %s", b, m.Provenance.Batch)
	}
	drifted := 0
	for _, r := range m.Provenance.Citations {
		want := "matches"
		if gitRun(t, dir, "rev-parse", "HEAD:"+r.Path) != r.Revision {
			want = "drifted"
		}
		if got := eval[string](t, ctx, `document.querySelector('.pin[data-path="`+r.Path+`"]').dataset.state`); got != want {
			t.Errorf("citation %s: %s, git says %s", r.Path, got, want)
		}
		if want == "drifted" {
			drifted++
		}
	}
	if drifted != 1 {
		t.Errorf("%d citations drifted, want the runbook's", drifted)
	}

	// Its history is git log's.
	do(t, ctx, "open the history", chromedp.Click(chromedp.CSS(`.pagehead .actions a[href$="?history"]`)), chromedp.WaitVisible(chromedp.CSS(`#history`)))
	shoot(t, ctx, "history")
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('#history a[href*="?diff="]')].map(a => a.href.split("diff=")[1])`)
	if want := strings.Fields(gitRun(t, dir, "log", "--first-parent", "--format=%H", "--", pathReplay)); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("history %v, git log %v", got, want)
	}

	// A question, asked in the box every view has.
	do(t, ctx, "ask", chromedp.SendKeys(chromedp.CSS(`form.ask input[name=q]`), "how do I replay the ledger write queue after an outage\n"),
		chromedp.WaitVisible(chromedp.CSS(`#sufficiency`)))
	shoot(t, ctx, "search")
	if eval[string](t, ctx, `document.querySelector('#sufficiency').dataset.sufficient`) != "true" {
		t.Error("the answer is not sufficient")
	}
	cites := eval[[]string](t, ctx, `[...document.querySelectorAll('#hits .cite code')].map(c => c.textContent)`)
	if len(cites) == 0 {
		t.Fatal("no excerpts")
	}
	for _, c := range cites {
		p, rev, _ := strings.Cut(c, "@")
		if blob := gitRun(t, dir, "rev-parse", "HEAD:"+p); !strings.HasPrefix(blob, rev) {
			t.Errorf("excerpt of %s at %s, git says %s", p, rev, blob)
		}
	}

	// The log, and the agent's ingest batch with its diff.
	do(t, ctx, "open the log", chromedp.Navigate(srv.URL+"/log"), chromedp.WaitVisible(chromedp.CSS(`#log`)))
	shoot(t, ctx, "log")
	commit := gitRun(t, dir, "log", "--format=%H", "--grep=^ingest: Refunds share the write queue")
	id := gitRun(t, dir, "log", "-1", "--format=%(trailers:key=Batch-Id,valueonly)", commit)
	do(t, ctx, "open the batch", chromedp.Click(chromedp.CSS(`#log a[href="/batch/`+id+`"]`)), chromedp.WaitVisible(chromedp.CSS(`section.file`)))
	shoot(t, ctx, "batch")
	files := eval[[]string](t, ctx, `[...document.querySelectorAll('section.file')].map(s => s.dataset.path).sort()`)
	if want := strings.Fields(gitRun(t, dir, "diff", "--name-only", commit+"^", commit)); strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("batch shows %v, git diff %v", files, want)
	}
	if text(`[data-field=author]`) != "agent "+agentName || text(`[data-field=approved_by]`) != "mei" {
		t.Errorf("batch by %q approved by %q", text(`[data-field=author]`), text(`[data-field=approved_by]`))
	}

	// The findings, filtered, and one followed to its line.
	do(t, ctx, "open the findings", chromedp.Navigate(srv.URL+"/findings"), chromedp.WaitVisible(chromedp.CSS(`#findings`)))
	shoot(t, ctx, "findings")
	do(t, ctx, "filter by check", chromedp.Click(chromedp.CSS(`nav.filters a[href="/findings?check=broken_crossref"]`)),
		chromedp.WaitVisible(chromedp.CSS(`nav.filters a[aria-current][href="/findings?check=broken_crossref"]`)))
	if checks := eval[[]string](t, ctx, `[...new Set([...document.querySelectorAll('#findings tr[data-check]')].map(r => r.dataset.check))]`); strings.Join(checks, " ") != "broken_crossref" {
		t.Errorf("filtered findings: %v", checks)
	}
	do(t, ctx, "follow a finding to its line", chromedp.Click(chromedp.CSS(`#findings a[href*="?source#L"]`)), chromedp.WaitVisible(chromedp.CSS(`table.source`)))
	if !eval[bool](t, ctx, `(() => { const r = document.querySelector(location.hash); return !!r && r.classList.contains("flagged") && r.textContent.includes("rollback.md") })()`) {
		t.Errorf("the finding's line is not the flagged one with the broken link")
	}

	do(t, ctx, "open the agents' activity", chromedp.Navigate(srv.URL+"/agents?days=30"), chromedp.WaitVisible(chromedp.CSS(`#consults`)))
	shoot(t, ctx, "agents")
	if n := eval[int](t, ctx, `document.querySelectorAll('#consults tr.skipped').length`); n != 2 {
		t.Errorf("%d skipped consults shown, want 2", n)
	}
	if msgs := con.take(); len(msgs) > 0 {
		t.Errorf("the browser's console:\n%s", strings.Join(msgs, "\n"))
	}
}

// TestE2EHostilePagesDoNotRun opens pages written to run script (script
// tags, event handlers, javascript: links, in the body and in the
// frontmatter) and fires every event their elements could carry: nothing
// runs, nothing is even blocked (the console stays empty, so the policy
// never had to step in), and the DOM holds no script of any kind.
func TestE2EHostilePagesDoNotRun(t *testing.T) {
	ctx, con := browser(t)
	s, _ := fixture(t, true)
	srv := serve(t, s, Options{})
	for _, u := range []string{
		pageURL(pathHostile),
		pageURL(pathHostile) + "?source",
		"/topics/releases.md",
		"/search?q=" + "hostile+page+inline+handler+javascript+link",
		"/search?q=%3Cimg+src%3Dx+onerror%3D%22window.pwned%3D1%22%3E",
	} {
		do(t, ctx, "open "+u, chromedp.Navigate(srv.URL+u), chromedp.WaitReady(chromedp.CSS(`footer`)))
		// Fire what a handler could wait for, on everything in the main
		// part of the page; links are left alone (following one is not
		// running it).
		eval[bool](t, ctx, `(() => {
			for (const el of document.querySelectorAll("main *")) {
				if (el.closest("a")) continue;
				for (const type of ["mouseover", "click", "focus", "toggle", "load", "error"]) el.dispatchEvent(new Event(type));
			}
			return true })()`)
		state := eval[map[string]any](t, ctx, `({
			pwned: typeof window.pwned !== "undefined" || typeof window.pwnedTitle !== "undefined" || document.title === "pwned",
			scripts: document.querySelectorAll("script").length,
			handlers: [...document.querySelectorAll("*")].filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith("on"))).map(e => e.outerHTML),
			jsLinks: [...document.querySelectorAll("[href], [src], [action]")].filter(e => /^\s*(javascript|vbscript|data):/i.test(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action"))).map(e => e.outerHTML),
			embeds: document.querySelectorAll("main iframe, main object, main embed, main svg, main form:not(.ask-big), main style, main base, meta[http-equiv]").length,
		})`)
		if state["pwned"] != false || state["scripts"] != 0.0 || len(state["handlers"].([]any)) != 0 || len(state["jsLinks"].([]any)) != 0 || state["embeds"] != 0.0 {
			t.Errorf("%s: %v", u, state)
		}
	}
	// The frontmatter's title is shown as text.
	do(t, ctx, "reopen the page", chromedp.Navigate(srv.URL+pageURL(pathHostile)), chromedp.WaitReady(chromedp.CSS(`footer`)))
	if title := eval[string](t, ctx, `document.title`); !strings.Contains(title, "<script>window.pwnedTitle=1</script>") {
		t.Errorf("the hostile title is not shown as text: %q", title)
	}
	if msgs := con.take(); len(msgs) > 0 {
		t.Errorf("the browser's console:\n%s", strings.Join(msgs, "\n"))
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
