package wiki_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// propose stages one page as a proposed batch by an agent.
func propose(t *testing.T, s *wiki.Space, p, title string) *wiki.Result {
	t.Helper()
	pg := page(title, "ops")
	res, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindFileBack, Title: title, Propose: true,
		Author: wiki.Author{Name: "claude-code", Kind: content.AuthorAgent}},
		func(ctx context.Context, tx *wiki.Tx) error {
			pg.Meta.Provenance.Batch = tx.Batch().ID
			_, err := tx.Put(ctx, p, pg, wiki.RoleSynthesis)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// write lands one page directly, as a person's batch.
func write(t *testing.T, s *wiki.Space, p, title string) {
	t.Helper()
	_, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: "dana"},
		func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.Put(ctx, p, page(title, "ops"), wiki.RolePage)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
}

func TestProposeApprove(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	head := git(t, dir, "rev-parse", "HEAD")
	res := propose(t, s, "synthesis/replays.md", "Replays carry keys")
	if git(t, dir, "rev-parse", "HEAD") != head || res.Proposal != wiki.ProposalRef(res.Batch) {
		t.Fatalf("a proposal moved the branch or has no ref: %+v", res)
	}
	if got := git(t, dir, "rev-parse", res.Proposal); got != res.Commit {
		t.Fatalf("git sees %s at %s, want %s", res.Proposal, got, res.Commit)
	}
	if git(t, dir, "rev-parse", res.Proposal+"^") != head {
		t.Error("the proposal is not built on the head")
	}
	git(t, dir, "pack-refs", "--all") // a git gc on the host's clone packs the branch
	ps, err := s.Proposals(ctx)
	if err != nil || len(ps) != 1 || ps[0].ID != res.Batch || ps[0].Agent != "claude-code" || len(ps[0].Paths) != 1 || ps[0].Paths[0] != "synthesis/replays.md" {
		t.Fatalf("proposals: %+v %v", ps, err)
	}
	// The head moves on under it with an unrelated batch.
	write(t, s, "pages/other.md", "Other")
	moved := git(t, dir, "rev-parse", "HEAD")
	s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
	landed, err := s.Approve(ctx, res.Batch, wiki.ApproveOptions{ApprovedBy: "dana"})
	if err != nil {
		t.Fatal(err)
	}
	if git(t, dir, "rev-parse", "HEAD") != landed.Commit || git(t, dir, "rev-parse", "HEAD^") != moved {
		t.Fatal("approve did not land one commit on the head")
	}
	if parents := strings.Fields(git(t, dir, "log", "-1", "--format=%P")); len(parents) != 1 {
		t.Errorf("approve made a merge commit: %v", parents)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	for _, w := range []string{"Batch-Id: " + res.Batch, "Approved-By: dana", "Agent: claude-code"} {
		if !strings.Contains(msg, w) {
			t.Errorf("landed message lacks %q:\n%s", w, msg)
		}
	}
	show := git(t, dir, "show", "HEAD:synthesis/replays.md")
	if !strings.Contains(show, "approved_by: dana") {
		t.Errorf("the page does not record its approver:\n%s", show)
	}
	if !strings.Contains(git(t, dir, "show", "HEAD:topics/ops.md"), "replays.md") {
		t.Error("the spoke does not list the landed page")
	}
	if out := git(t, dir, "for-each-ref", "refs/heads/pt/"); out != "" {
		t.Errorf("the proposal branch stays: %s", out)
	}
	git(t, dir, "fsck", "--strict")
	if _, err := s.Approve(ctx, res.Batch, wiki.ApproveOptions{ApprovedBy: "dana"}); !errors.Is(err, wiki.ErrApproved) {
		t.Errorf("approving twice: %v", err)
	}
	if _, err := s.Approve(ctx, "b-20261129-000000", wiki.ApproveOptions{ApprovedBy: "dana"}); !errors.Is(err, wiki.ErrNoProposal) {
		t.Errorf("approving an unknown id: %v", err)
	}
	if _, err := s.Approve(ctx, "../../HEAD", wiki.ApproveOptions{ApprovedBy: "dana"}); !errors.Is(err, wiki.ErrNoProposal) {
		t.Errorf("approving a path: %v", err)
	}
}

func TestProposalConflictAndReject(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	res := propose(t, s, "pages/shared.md", "Shared")
	write(t, s, "pages/shared.md", "Shared by a person")
	head := git(t, dir, "rev-parse", "HEAD")
	_, err := s.Approve(ctx, res.Batch, wiki.ApproveOptions{ApprovedBy: "dana"})
	var ce *wiki.ConflictError
	if !errors.As(err, &ce) || len(ce.Paths) != 1 || ce.Paths[0] != "pages/shared.md" {
		t.Fatalf("approve over a conflicting change: %v", err)
	}
	if git(t, dir, "rev-parse", "HEAD") != head || git(t, dir, "rev-parse", res.Proposal) != res.Commit {
		t.Fatal("a refused approve changed the branch or the proposal")
	}
	rj, err := s.Reject(ctx, res.Batch, "a person wrote this page meanwhile", wiki.Author{Name: "dana", Email: "dana@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(git(t, dir, "log", "-1", "--format=%B", rj.Ref), "a person wrote this page meanwhile") {
		t.Error("the rejection does not keep its reason")
	}
	if git(t, dir, "rev-parse", rj.Ref+"^") != res.Commit {
		t.Error("the rejection does not keep the proposal")
	}
	if ps, _ := s.Proposals(ctx); len(ps) != 0 {
		t.Errorf("a rejected proposal is still listed: %+v", ps)
	}
	if _, err := s.Approve(ctx, res.Batch, wiki.ApproveOptions{ApprovedBy: "dana"}); !errors.Is(err, wiki.ErrRejected) {
		t.Errorf("approving a rejected proposal: %v", err)
	}
	if _, err := s.Reject(ctx, res.Batch, "again", wiki.Author{Name: "dana"}); !errors.Is(err, wiki.ErrRejected) {
		t.Errorf("rejecting twice: %v", err)
	}
	if _, err := s.Reject(ctx, "b-x", "", wiki.Author{Name: "dana"}); err == nil {
		t.Error("a rejection without a reason")
	}
	git(t, dir, "fsck", "--strict")
}
