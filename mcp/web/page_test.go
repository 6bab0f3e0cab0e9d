package web

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
)

// field returns the text of the element marked data-field=name, tags
// stripped and spaces collapsed.
func field(t testing.TB, body, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?s)data-field="` + name + `"[^>]*>(.*?)</(dd|code)>`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no field %s in the page", name)
	}
	return strings.Join(strings.Fields(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], " ")), " ")
}

// TestPageProvenance: the panel says what the page's frontmatter says, the
// revision is git's, and each pin says whether it still matches.
func TestPageProvenance(t *testing.T) {
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})
	ctx := context.Background()
	head, _ := s.Head(ctx)
	pa, err := s.ReadPage(ctx, head, pathRunbookSum)
	if err != nil {
		t.Fatal(err)
	}
	m := pa.Page.Meta
	body := mustGet(t, srv.URL+pageURL(pathRunbookSum))
	for name, want := range map[string]string{
		"kind":        m.Kind,
		"approved_by": m.Provenance.ApprovedBy,
		"batch":       m.Provenance.Batch,
		"status":      content.StatusStale, // lint marked it: its source changed on the host
		"revision":    gitRun(t, dir, "rev-parse", "HEAD:"+pathRunbookSum)[:12],
	} {
		if got := field(t, body, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// pt wrote the summary (an agent); dana approved it.
	if got := field(t, body, "author"); got != m.Author.Name+" agent" || m.Author.Kind != content.AuthorAgent {
		t.Errorf("author: %q, want %s, an agent", got, m.Author.Name)
	}
	if !strings.Contains(body, `href="/batch/`+m.Provenance.Batch+`"`) {
		t.Errorf("the batch is not linked")
	}
	// The summary pins the source as ingested; the person's edit moved it.
	df := m.Provenance.DerivedFrom[0]
	now := gitRun(t, dir, "rev-parse", "HEAD:"+df.Path)
	if df.Revision == now {
		t.Fatal("the fixture's edit did not move the source")
	}
	if !strings.Contains(body, `data-path="`+df.Path+`" data-state="drifted"`) || !strings.Contains(body, now[:12]) {
		t.Errorf("the drifted derived_from is not shown as drifted at %s", now[:12])
	}
	for _, b := range []string{`class="badge needs-review"`, `class="badge stale"`} {
		if !strings.Contains(body, b) {
			t.Errorf("missing badge %s", b)
		}
	}
	fs, _ := lint.Findings(ctx, s, head)
	for _, f := range fs {
		if f.Path == pathRunbookSum && f.Open() && !strings.Contains(body, f.Check) {
			t.Errorf("open finding %s not shown", f.Check)
		}
	}
}

// TestPageBadges: an agent's synthesis shows its citations still matching
// and an agent author; a time-bound one says so; a superseded page links
// its successor.
func TestPageBadges(t *testing.T) {
	s, _ := fixture(t, false)
	srv := serve(t, s, Options{})
	ctx := context.Background()
	head, _ := s.Head(ctx)
	syn, err := s.List(ctx, head, "synthesis")
	if err != nil || len(syn) != 2 {
		t.Fatalf("the fixture filed %d syntheses (%v), want 2", len(syn), err)
	}
	timeBound := 0
	for _, e := range syn {
		pa, _ := s.ReadPage(ctx, head, e.Path)
		body := mustGet(t, srv.URL+pageURL(e.Path))
		if got := field(t, body, "author"); !strings.Contains(got, agentName) || !strings.Contains(got, "agent") {
			t.Errorf("%s author: %q", e.Path, got)
		}
		if pa.Page.Meta.Durability == "time_bound" {
			timeBound++
			if !strings.Contains(body, `class="badge time-bound"`) || field(t, body, "expires") != pa.Page.Meta.Expires {
				t.Errorf("%s: time-bound page without its badge or expiry %s", e.Path, pa.Page.Meta.Expires)
			}
		}
		for _, c := range pa.Page.Meta.Provenance.Citations {
			if !strings.Contains(body, `data-path="`+c.Path+`" data-state=`) {
				t.Errorf("%s: citation %s not shown", e.Path, c.Path)
			}
		}
	}
	if timeBound != 1 {
		t.Errorf("%d time-bound syntheses, want 1", timeBound)
	}
	body := mustGet(t, srv.URL+pageURL(pathFreezeV1))
	if !strings.Contains(body, `class="badge superseded"`) || field(t, body, "superseded_by") != pathFreezeV2 {
		t.Errorf("superseded page: no badge or successor")
	}
	if body := mustGet(t, srv.URL+pageURL(pathFreezeV2)); strings.Contains(body, `class="badge `) {
		t.Errorf("the active successor has a badge: %s", regexp.MustCompile(`class="badge [^<]*`).FindAllString(body, -1))
	}
}

// TestPageRendersAsGitHub: tables, task lists, code and relative links
// that open the linked page in the view, anchors kept.
func TestPageRendersAsGitHub(t *testing.T) {
	s, _ := fixture(t, false)
	srv := serve(t, s, Options{})
	body := mustGet(t, srv.URL+pageURL(pathChecklist))
	for _, want := range []string{
		`<th align="left">Step</th>`,
		`<input checked="" disabled="" type="checkbox">`,
		`<del>Manual smoke test</del>`,
		`<code class="language-sh">make release VERSION=2026.11`,
		`<a href="/sources/runbook-write-queue-replay.md#steps">runbook</a>`,
		`<h1 id="release-checklist">Release checklist</h1>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %s", want)
		}
	}
	// The link it gives works, anchor included.
	linked := mustGet(t, srv.URL+"/sources/runbook-write-queue-replay.md")
	if !strings.Contains(linked, `id="steps"`) {
		t.Errorf("the linked page has no #steps anchor")
	}
	// The broken link is a finding, and the finding links to its line.
	if !strings.Contains(body, "broken_crossref") || !regexp.MustCompile(`href="/pages/release-checklist.md\?source#L\d+"`).MatchString(body) {
		t.Errorf("the broken link's finding is not shown with its line")
	}
}
