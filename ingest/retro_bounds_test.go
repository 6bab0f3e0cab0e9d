package ingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
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
