package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// TestAgentSession is an agent's session through a real MCP client: it
// grounds itself on the files it is about to change, proposes what it
// learned, a person approves the proposal, and the next agent's query cites
// the approved page.
func TestAgentSession(t *testing.T) {
	ctx := context.Background()
	s := newSpace(t)
	_, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Ledger replay rules", Kind: ingest.SourceDecision, Topics: []string{"ledger"},
		AppliesTo: []string{"internal/ledger/**"}, ApprovedBy: "dana", When: when.Add(time.Hour),
		Author: wiki.Author{Kind: content.AuthorHuman, Name: "dana"},
		Body:   []byte("# Replays\n\nThe replay worker reads the write queue from the last acknowledged offset. Every replayed write carries its original idempotency key.\n")})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, "claude-code")

	// 1. Ground: what applies to the file about to change, with a question.
	res := call(t, cs, ToolQuery, map[string]any{"question": "how does the replay worker pick up after a crash", "paths": []string{"internal/ledger/replay.go"}})
	var grounded retrieve.Result
	remarshal(t, res.StructuredContent, &grounded)
	if res.IsError || !grounded.Sufficient || len(grounded.Results) == 0 || !strings.HasSuffix(grounded.Results[0].Path, "ledger-replay-rules.md") {
		t.Fatalf("grounding on internal/ledger/replay.go: %s", textOf(res))
	}
	cited := grounded.Results[0].Path

	// 2. Propose what the session learned, citing what it used.
	res = call(t, cs, ToolPropose, map[string]any{
		"title":     "How does the replay worker resume after a crash",
		"body":      "After a crash the replay worker resumes from the last acknowledged offset of the write queue, so writes after that offset are replayed with their original idempotency keys and applied once. The checkpoint is written after each acknowledged batch of 500 writes.",
		"citations": []string{cited},
	})
	var v ingest.Verdict
	remarshal(t, res.StructuredContent, &v)
	if res.IsError || v.Verdict != ingest.VerdictProposed || v.Batch == "" || v.Proposal != wiki.ProposalRef(v.Batch) {
		t.Fatalf("propose_note: %s %+v", textOf(res), v)
	}
	head := git(t, s, "rev-parse", "HEAD")
	if got := git(t, s, "rev-parse", v.Proposal+"^"); got != head {
		t.Fatalf("the proposal is not a branch on the head: %s", got)
	}

	// Before approval the note is not an answer.
	after := map[string]any{"question": "where does the replay worker resume after a crash and how often is the checkpoint written"}
	res = call(t, cs, ToolQuery, after)
	var before retrieve.Result
	remarshal(t, res.StructuredContent, &before)
	for _, h := range before.Results {
		if h.Path == v.Page {
			t.Fatalf("an unapproved proposal was served: %s", h.Path)
		}
	}

	// 3. A person approves it, as pt approve does.
	landed, err := s.Approve(ctx, v.Batch, wiki.ApproveOptions{ApprovedBy: "dana"})
	if err != nil {
		t.Fatal(err)
	}
	if git(t, s, "rev-parse", "HEAD^") != head || !strings.Contains(git(t, s, "log", "-1", "--format=%B"), "Approved-By: dana") {
		t.Fatalf("approve did not land one approved commit on the head")
	}

	// 4. The next query cites the approved note at its landed revision.
	res = call(t, cs, ToolQuery, after)
	var next retrieve.Result
	remarshal(t, res.StructuredContent, &next)
	var hit *retrieve.Hit
	for i := range next.Results {
		if next.Results[i].Path == v.Page {
			hit = &next.Results[i]
		}
	}
	if hit == nil {
		t.Fatalf("the approved note is not cited: %s", textOf(res))
	}
	if rev := git(t, s, "rev-parse", landed.Commit+":"+v.Page); hit.Revision != rev {
		t.Errorf("cited revision %s, want the landed blob %s", hit.Revision, rev)
	}
}

// Proposals pass the same gates as every write: live state and secrets are
// refused, and nothing is proposed.
func TestProposeGates(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "claude-code")
	res := call(t, cs, ToolPropose, map[string]any{"title": "What should dana work on next", "body": "Dana should pick up the replay worker next sprint.", "citations": []string{"sources/ledger-outage-postmortem.md"}})
	var v ingest.Verdict
	remarshal(t, res.StructuredContent, &v)
	if v.Verdict != ingest.VerdictSkipped || v.Gate != ingest.GateDurability {
		t.Errorf("live state: %s", textOf(res))
	}
	res = call(t, cs, ToolPropose, map[string]any{"title": "Deploy key", "body": "Use AKIAIOSFODNN7EXAMPLQ with the deploy role.", "citations": []string{"sources/ledger-outage-postmortem.md"}})
	if !res.IsError || !strings.Contains(textOf(res), "secret") {
		t.Errorf("a secret: %s", textOf(res))
	}
	if refs := git(t, s, "for-each-ref", "refs/heads/pt/"); refs != "" {
		t.Errorf("refused notes left proposals: %s", refs)
	}
}

// A question the space cannot answer over MCP is recorded as a gap.
func TestQueryRecordsGaps(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "claude-code")
	res := call(t, cs, ToolQuery, map[string]any{"question": "who owns the billing reconciliation job"})
	var r retrieve.Result
	remarshal(t, res.StructuredContent, &r)
	if r.Sufficient {
		t.Fatalf("the seeds answer it: %s", textOf(res))
	}
	gaps, err := s.Gaps()
	if err != nil || len(gaps) != 1 || gaps[0].Question != "who owns the billing reconciliation job" {
		t.Errorf("gaps: %+v %v", gaps, err)
	}
}
