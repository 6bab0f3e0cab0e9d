package ingest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func TestReap(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "name: team\nttl: 10d\n")
	// A time_bound synthesis (expires fbConsult + 10d = 2026-12-09), a
	// person's page with its own expiry, one already retracted, one with a
	// date that is not a date, and a durable one.
	v, err := ingest.FileBack(ctx, s, ingest.Consult{
		Question:  "How long are idempotency keys kept?",
		Answer:    "Keys are currently kept for 24 hours in Redis, keyed by tenant and key; the retention will be revisited once the SDKs persist keys across app restarts.",
		Citations: []string{idemPage}, Author: fbAgent, When: fbConsult,
	})
	if err != nil || v.Verdict != ingest.VerdictFiled || v.Durability != "time_bound" {
		t.Fatalf("%v %+v", err, v)
	}
	human := content.NewPage(content.Meta{Title: "Holiday freeze", Kind: content.KindPage, Topics: []string{"planning"}, Expires: "2026-12-05",
		Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}, Summary: "No deploys over the holidays."},
		[]byte("# Holiday freeze\n\nNo deploys between the 20th and the 5th.  \nTrailing spaces and\r\nCRLF stay as they are.\n"))
	fbPut(t, s, "pages/freeze.md", human, fbConsult)
	fbPut(t, s, "pages/old.md", content.NewPage(content.Meta{Title: "Old", Kind: content.KindPage, Topics: []string{"planning"}, Expires: "2026-12-01", Status: content.StatusRetracted}, []byte("old\n")), fbConsult)
	fbPut(t, s, "pages/odd.md", content.NewPage(content.Meta{Title: "Odd", Kind: content.KindPage, Topics: []string{"planning"}, Expires: "soon"}, []byte("odd\n")), fbConsult)
	if !strings.Contains(fbGit(t, dir, "show", "HEAD:topics/planning.md"), "freeze.md") {
		t.Fatal("the freeze page is not in its spoke to begin with")
	}
	before := map[string][]byte{}
	for _, p := range []string{v.Page, "pages/freeze.md"} {
		pa, err := readAtHead(ctx, s, p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = pa.Page.Body
	}

	// Before any expiry: nothing to do, no commit.
	head := fbGit(t, dir, "rev-parse", "HEAD")
	res, err := ingest.Reap(ctx, s, time.Date(2026, 12, 5, 23, 0, 0, 0, time.UTC), "dana")
	if err != nil || !res.Unchanged {
		t.Fatalf("early reap: %v %+v", err, res)
	}
	if fbGit(t, dir, "rev-parse", "HEAD") != head {
		t.Fatal("an idle reap made a commit")
	}

	// After both dates: one batch expires both, bodies byte-exact.
	now := time.Date(2026, 12, 10, 6, 0, 0, 0, time.UTC)
	res, err = ingest.Reap(ctx, s, now, "dana")
	if err != nil {
		t.Fatal(err)
	}
	var expired []string
	for _, w := range res.Pages {
		if w.Role == wiki.RoleExpired {
			expired = append(expired, w.Path)
		}
	}
	if strings.Join(expired, ",") != "pages/freeze.md,"+v.Page {
		t.Errorf("expired %v", expired)
	}
	msg := fbGit(t, dir, "log", "-1", "--format=%B")
	for _, want := range []string{"reap: expire 2 time_bound pages past their date", "Batch-Kind: reap", "Approved-By: dana", "- pages/freeze.md (expires 2026-12-05)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
	if got := fbGit(t, dir, "rev-list", "--count", head+"..HEAD"); got != "1" {
		t.Errorf("%s commits, want 1", got)
	}
	fbGit(t, dir, "fsck", "--strict")
	for p, body := range before {
		pa, err := readAtHead(ctx, s, p)
		if err != nil {
			t.Fatal(err)
		}
		if pa.Page.Meta.Status != content.StatusExpired || !pa.Page.Meta.Updated.Equal(now) {
			t.Errorf("%s: status %q updated %v", p, pa.Page.Meta.Status, pa.Page.Meta.Updated)
		}
		if !bytes.Equal(pa.Page.Body, body) {
			t.Errorf("%s: body changed:\n%q\n%q", p, body, pa.Page.Body)
		}
	}
	if spoke := fbGit(t, dir, "show", "HEAD:topics/planning.md"); strings.Contains(spoke, "freeze.md") {
		t.Errorf("expired page still in its spoke:\n%s", spoke)
	}
	for _, p := range []string{"pages/old.md", "pages/odd.md"} {
		pa, _ := readAtHead(ctx, s, p)
		if pa == nil || pa.Page.Meta.Status == content.StatusExpired {
			t.Errorf("%s was expired", p)
		}
	}
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	r, err := e.Query(ctx, retrieve.Request{Question: "how long are idempotency keys kept in redis", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if rankOf(r, v.Page) != 0 {
		t.Errorf("expired synthesis still retrieved: %v", paths(r))
	}

	// Idempotent.
	head = fbGit(t, dir, "rev-parse", "HEAD")
	res, err = ingest.Reap(ctx, s, now.Add(time.Hour), "dana")
	if err != nil || !res.Unchanged || fbGit(t, dir, "rev-parse", "HEAD") != head {
		t.Errorf("second reap: %v %+v", err, res)
	}

	// Absurd clocks are refused.
	for _, bad := range []time.Time{time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if _, err := ingest.Reap(ctx, s, bad, "dana"); err == nil || !strings.Contains(err.Error(), "clock out of range") {
			t.Errorf("reap at %v: %v", bad, err)
		}
	}
	if fbGit(t, dir, "rev-parse", "HEAD") != head || fbGit(t, dir, "status", "--porcelain") != "" {
		t.Error("refused reaps changed the repository")
	}
}

func readAtHead(ctx context.Context, s *wiki.Space, p string) (*wiki.PageAt, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	return s.ReadPage(ctx, head, p)
}
