package ingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// TestRetroAfterRevert: a reverted retrospective closed nothing, so closing
// the cycle again counts from where the cycle began, not from the reverted
// retro's commit.
func TestRetroAfterRevert(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	fbPut(t, s, "pages/x.md", content.NewPage(content.Meta{Title: "X", Topics: []string{"ops"}}, []byte("x\n")), fbConsult)
	first, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "Q1", Now: fbConsult.Add(time.Hour), ApprovedBy: "dana"})
	if err != nil || first.Verdict != ingest.VerdictFiled {
		t.Fatalf("first close: %v %+v", err, first)
	}
	if _, err := s.Revert(ctx, first.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: fbConsult.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	again, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "Q1", Now: fbConsult.Add(3 * time.Hour), ApprovedBy: "dana"})
	if err != nil || again.Verdict != ingest.VerdictFiled {
		t.Fatalf("second close: %v %+v", err, again)
	}
	commits := len(strings.Fields(fbGit(t, dir, "rev-list", again.Stats.Until)))
	if st := again.Stats; st.Since != "" || st.Commits != commits || st.PagesAdded != first.Stats.PagesAdded {
		t.Errorf("second close counts since %q, %d commits (want all %d), %d pages added (first close %d)",
			st.Since, st.Commits, commits, st.PagesAdded, first.Stats.PagesAdded)
	}
}

// A retrospective whose revert was reverted closes its cycle again: the
// next cycle counts from it.
func TestRetroAfterRevertOfRevert(t *testing.T) {
	ctx := context.Background()
	s, _ := fbSpace(t, "")
	fbPut(t, s, "pages/x.md", content.NewPage(content.Meta{Title: "X", Topics: []string{"ops"}}, []byte("x\n")), fbConsult)
	first, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "Q1", Now: fbConsult.Add(time.Hour), ApprovedBy: "dana"})
	if err != nil || first.Verdict != ingest.VerdictFiled {
		t.Fatalf("first close: %v %+v", err, first)
	}
	rv, err := s.Revert(ctx, first.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: fbConsult.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revert(ctx, rv.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: fbConsult.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	fbPut(t, s, "pages/y.md", content.NewPage(content.Meta{Title: "Y", Topics: []string{"ops"}}, []byte("y\n")), fbConsult.Add(4*time.Hour))
	next, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "Q2", Now: fbConsult.Add(5 * time.Hour), ApprovedBy: "dana"})
	if err != nil || next.Verdict != ingest.VerdictFiled {
		t.Fatalf("next close: %v %+v", err, next)
	}
	if st := next.Stats; st.Since == "" || st.PagesAdded != 1 {
		t.Errorf("Q2 counts since %q with %d pages added; want from Q1's close, 1 page", st.Since, st.PagesAdded)
	}
}

// TestRetroCountsByCommits: lint findings and skipped consults belong to
// the cycle whose commits they came after, whatever the clocks say: a lint
// run or a consult in the very second of the previous close, or with a
// --now before it, counts in the next cycle, and only there.
func TestRetroCountsByCommits(t *testing.T) {
	ctx := context.Background()
	s, _ := fbSpace(t, "")
	day := func(d int) time.Time { return time.Date(2027, 1, d, 0, 0, 0, 0, time.UTC) }
	fbPut(t, s, "pages/oncall.md", content.NewPage(content.Meta{Title: "On-call handbook", Kind: content.KindPage, Topics: []string{"operations"}},
		[]byte("# On-call handbook\n\nSee [the runbook](runbook-write-queue-replay.md) and [the pager guide](pager.md).\n")), day(9))
	lintAt := func(when time.Time) {
		t.Helper()
		if _, err := lint.Run(ctx, s, lint.Options{Now: when}); err != nil {
			t.Fatal(err)
		}
	}
	retro := func(cycle string, when time.Time) ingest.RetroStats {
		t.Helper()
		r, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: cycle, Now: when, ApprovedBy: "dana"})
		if err != nil || r.Verdict != ingest.VerdictFiled {
			t.Fatalf("close %s: %v %+v", cycle, err, r)
		}
		return r.Stats
	}
	skip := func(when time.Time) {
		t.Helper()
		v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: "What should dana work on next?", Answer: idemAnswer, Citations: []string{idemPage}, When: when})
		if err != nil || v.Gate != ingest.GateDurability {
			t.Fatalf("consult: %v %+v", err, v)
		}
	}
	type counts struct{ Opened, Resolved, Skipped int }
	got := func(st ingest.RetroStats) counts {
		return counts{st.FindingsOpened, st.FindingsClosed, st.ConsultsSkipped[ingest.GateDurability]}
	}

	lintAt(day(10))
	skip(day(10))
	if c := got(retro("Q1", day(31))); c != (counts{1, 0, 1}) {
		t.Errorf("Q1: %+v, want 1 opened, 1 skipped", c)
	}
	// In the second Q1 was closed: the fix, a lint run that sees it, and a
	// skipped consult.
	fbPut(t, s, "pages/pager.md", content.NewPage(content.Meta{Title: "Pager guide", Kind: content.KindPage, Topics: []string{"operations"}},
		[]byte("# Pager guide\n\nAck within five minutes.\n")), day(31))
	lintAt(day(31))
	skip(day(31))
	if c := got(retro("Q2", day(28).AddDate(0, 1, 0))); c != (counts{0, 1, 1}) {
		t.Errorf("Q2: %+v, want 1 resolved, 1 skipped", c)
	}
	// Clocks set before the previous close: a new broken link found by a
	// run dated January, and a consult dated January.
	fbPut(t, s, "pages/pager.md", content.NewPage(content.Meta{Title: "Pager guide", Kind: content.KindPage, Topics: []string{"operations"}},
		[]byte("# Pager guide\n\nAck within five minutes; see [escalation](escalation.md).\n")), day(20))
	lintAt(day(20))
	skip(day(20))
	if c := got(retro("Q3", day(31).AddDate(0, 2, 0))); c != (counts{1, 0, 1}) {
		t.Errorf("Q3: %+v, want 1 opened, 1 skipped", c)
	}
}
