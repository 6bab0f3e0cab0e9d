package ingest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// TestRetro closes a cycle with a known history: two consults filed (one
// then reverted), two skipped, a page added with a broken link that lint
// flags, then fixed.
func TestRetro(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	start := wiki.Rev(fbGit(t, dir, "rev-parse", "HEAD"))
	at := func(h int) time.Time { return fbConsult.Add(time.Duration(h) * time.Hour) }
	// Each step's batch is dated by the space's clock, set to hour h.
	tick := func(h int) { s.SetClock(func() time.Time { return at(h) }) }

	file := func(q, a string, cites []string, h int) *ingest.Verdict {
		t.Helper()
		tick(h)
		v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: q, Answer: a, Citations: cites})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := file("Is it safe to replay the ledger write queue after an outage?", idemAnswer, []string{idemPage, replayPage}, 1); v.Verdict != ingest.VerdictFiled {
		t.Fatalf("%+v", v)
	}
	v2 := file("How long are idempotency keys kept?", "Keys are kept for a day in Redis, keyed by tenant and key, which bounds how late a safe replay of the ledger queue may start.", []string{idemPage}, 2)
	if v2.Verdict != ingest.VerdictFiled {
		t.Fatalf("%+v", v2)
	}
	if _, err := s.Revert(ctx, v2.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: at(3)}); err != nil {
		t.Fatal(err)
	}
	if v := file("What should dana work on next?", idemAnswer, []string{idemPage}, 4); v.Gate != ingest.GateDurability {
		t.Fatalf("%+v", v)
	}
	if v := file("Anything new?", idemAnswer, []string{"pages/missing.md"}, 5); v.Gate != ingest.GateCitations {
		t.Fatalf("%+v", v)
	}
	fbPut(t, s, "pages/oncall.md", content.NewPage(content.Meta{Title: "On-call handbook", Kind: content.KindPage, Topics: []string{"operations"}},
		[]byte("# On-call handbook\n\nSee [the runbook](runbook-write-queue-replay.md) and [the pager guide](pager.md).\n")), at(6))
	tick(7)
	if _, err := lint.Run(ctx, s, lint.Options{}); err != nil {
		t.Fatal(err)
	}
	mid := fbGit(t, dir, "rev-parse", "HEAD")
	fbPut(t, s, "pages/pager.md", content.NewPage(content.Meta{Title: "Pager guide", Kind: content.KindPage, Topics: []string{"operations"}}, []byte("# Pager guide\n\nAck within five minutes.\n")), at(8))
	tick(9)
	if _, err := lint.Run(ctx, s, lint.Options{}); err != nil {
		t.Fatal(err)
	}
	opened, err := lint.Findings(ctx, s, wiki.Rev(mid))
	if err != nil {
		t.Fatal(err)
	}
	now := at(10)
	head := fbGit(t, dir, "rev-parse", "HEAD")
	r, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "2026-11 sprint 3", Since: string(start), Now: now, ApprovedBy: "dana"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != ingest.VerdictFiled || r.Page != "retros/2026-11-sprint-3.md" || r.Gate != "" {
		t.Fatalf("%+v", r)
	}
	// Count what the history holds independently, with git.
	commits := strings.Count(fbGit(t, dir, "rev-list", string(start)+".."+head), "\n") + 1
	openAt := func(fs []lint.Finding) map[string]bool {
		m := map[string]bool{}
		for _, f := range fs {
			if f.Open() {
				m[f.ID] = true
			}
		}
		return m
	}
	final, _ := lint.Findings(ctx, s, wiki.Rev(head))
	resolved := 0
	for _, f := range final {
		if !f.Open() {
			resolved++
		}
	}
	if len(openAt(opened)) == 0 || resolved == 0 {
		t.Fatalf("the history does not exercise lint: opened %d, resolved %d", len(openAt(opened)), resolved)
	}
	st := r.Stats
	want := ingest.RetroStats{
		Since: string(start), Until: head, From: fbWhen, To: at(9), Commits: commits,
		Batches:       map[string]int{wiki.KindFileBack: 2, wiki.KindRevert: 1, wiki.KindIngest: 2, wiki.KindLint: st.Batches[wiki.KindLint]},
		PagesAdded:    3, // the first synthesis, oncall, pager (the reverted one is gone)
		PagesChanged:  0,
		ConsultsFiled: 1, ConsultsSkipped: map[string]int{ingest.GateDurability: 1, ingest.GateCitations: 1},
		Filed:          []string{"synthesis/is-it-safe-to-replay-the-ledger-write-queue-after-an-outage.md"},
		FindingsOpened: len(final), FindingsClosed: resolved, FindingsOpen: len(openAt(final)),
		Topics: []ingest.TopicCount{{Topic: "operations", Pages: 2}, {Topic: "api", Pages: 1}, {Topic: "ledger", Pages: 1}, {Topic: "payments", Pages: 1}},
	}
	if st.Batches[wiki.KindLint] < 1 {
		t.Errorf("no lint batches counted: %v", st.Batches)
	}
	if d := cmp.Diff(want, st); d != "" {
		t.Errorf("stats (-want +got):\n%s", d)
	}
	page := fbGit(t, dir, "show", "HEAD:"+r.Page)
	for _, s := range []string{
		"kind: retrospective", "title: 'Retrospective: 2026-11 sprint 3'", "durability: durable", "classification: UNCLASSIFIED",
		"# Retrospective: 2026-11 sprint 3", "| file-back | 2 |", "- Added: 3", "- Filed back: 1", "- Skipped: 2 (citations 1, durability 1)", fmt.Sprintf("- Resolved: %d\n", resolved),
		"[Is it safe to replay the ledger write queue after an outage?](../synthesis/is-it-safe-to-replay-the-ledger-write-queue-after-an-outage.md)",
		"[operations](../topics/operations.md): 2 pages added or changed",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("retro page lacks %q:\n%s", s, page)
		}
	}
	if msg := fbGit(t, dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "Batch-Kind: retro") || !strings.Contains(msg, "retro: retrospective for 2026-11 sprint 3") {
		t.Errorf("commit:\n%s", msg)
	}
	fbGit(t, dir, "fsck", "--strict")

	// Closing the same cycle again writes nothing and says so.
	before := fbState(t, dir)
	again, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "2026-11 Sprint 3", Now: now.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if again.Verdict != ingest.VerdictSkipped || again.Gate != ingest.GateNearDuplicate || !strings.Contains(again.Reason, "already closed") {
		t.Errorf("second close: %+v", again)
	}
	if fbState(t, dir) != before {
		t.Error("second close changed the repository")
	}

	// The next cycle starts where the last retro ended.
	next, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "2026-12", Now: now.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if next.Stats.Since != r.Commit || next.Stats.Commits != 0 || next.Verdict != ingest.VerdictFiled {
		t.Errorf("next cycle: since %s (want %s), %d commits, %s", next.Stats.Since, r.Commit, next.Stats.Commits, next.Verdict)
	}
}

// TestRetroRefusals: bad requests fail with one clear error and leave
// nothing behind, and a failed close can be retried; a classified space
// skips.
func TestRetroRefusals(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	first := fbGit(t, dir, "rev-list", "--max-parents=0", "HEAD")
	fbPut(t, s, "pages/x.md", content.NewPage(content.Meta{Title: "X", Topics: []string{"ops"}}, []byte("x\n")), fbConsult)
	before := fbState(t, dir)
	for _, tc := range []struct {
		r    ingest.RetroRequest
		want string
	}{
		{ingest.RetroRequest{Cycle: " "}, "bad retro: name the cycle"},
		{ingest.RetroRequest{Cycle: "c", Since: "nosuchrev"}, `revision "nosuchrev"`},
		{ingest.RetroRequest{Cycle: "c", Since: "HEAD", Until: first}, "is not an ancestor"},
		{ingest.RetroRequest{Cycle: "c", Now: time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)}, "clock out of range"},
		{ingest.RetroRequest{Cycle: "c", Now: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}, "clock out of range"},
	} {
		_, err := ingest.Retro(ctx, s, tc.r)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want %q", tc.r, err, tc.want)
		}
		if fbState(t, dir) != before {
			t.Fatalf("%+v changed the repository", tc.r)
		}
	}
	// The failed close of "c" did not close it.
	r, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: "c", Now: fbConsult.Add(time.Hour)})
	if err != nil || r.Verdict != ingest.VerdictFiled {
		t.Fatalf("retry: %v %+v", err, r)
	}

	cs, cdir := fbSpace(t, "name: team\nclassification: RESTRICTED\n")
	before = fbState(t, cdir)
	r, err = ingest.Retro(ctx, cs, ingest.RetroRequest{Cycle: "c", Now: fbConsult})
	if err != nil || r.Gate != ingest.GateClassification || fbState(t, cdir) != before {
		t.Errorf("classified space: %v %+v", err, r)
	}
}

// TestRetroCycleNames: a cycle is closed by its name, not its slug. Names
// that share a slug get numbered pages, a name with nothing to slug is
// refused, and a reverted close frees only its own cycle.
func TestRetroCycleNames(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	at := func(h int) time.Time { return fbConsult.Add(time.Duration(h) * time.Hour) }
	before := fbState(t, dir)
	for _, name := range []string{"!!!", "???", " - "} {
		if _, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: name, Now: at(0)}); err == nil || !strings.Contains(err.Error(), "bad retro") || !strings.Contains(err.Error(), "no letter or digit") {
			t.Errorf("cycle %q: %v, want a refusal", name, err)
		}
	}
	if fbState(t, dir) != before {
		t.Error("a refused cycle name changed the repository")
	}
	closeAs := func(name string, h int, verdict, page string) *ingest.RetroResult {
		t.Helper()
		r, err := ingest.Retro(ctx, s, ingest.RetroRequest{Cycle: name, Now: at(h), ApprovedBy: "dana"})
		if err != nil {
			t.Fatalf("cycle %q: %v", name, err)
		}
		if r.Verdict != verdict || r.Page != page {
			t.Errorf("cycle %q: %s %s (%s), want %s %s", name, r.Verdict, r.Page, r.Reason, verdict, page)
		}
		return r
	}
	c := closeAs("C cycle", 1, ingest.VerdictFiled, "retros/c-cycle.md")
	closeAs("C++ cycle", 2, ingest.VerdictFiled, "retros/c-cycle-2.md")
	closeAs("C cycle 2", 3, ingest.VerdictFiled, "retros/c-cycle-2-2.md")
	closeAs("C++ cycle", 4, ingest.VerdictSkipped, "retros/c-cycle-2.md")
	closeAs("c  CYCLE", 4, ingest.VerdictSkipped, "retros/c-cycle.md")
	if title := fbGit(t, dir, "show", "HEAD:retros/c-cycle-2.md"); !strings.Contains(title, "title: 'Retrospective: C++ cycle'") {
		t.Errorf("retros/c-cycle-2.md:\n%s", title)
	}
	// Reverting "C cycle" reopens it, and only it.
	if _, err := s.Revert(ctx, c.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: at(5)}); err != nil {
		t.Fatal(err)
	}
	closeAs("C++ cycle", 6, ingest.VerdictSkipped, "retros/c-cycle-2.md")
	closeAs("C cycle", 6, ingest.VerdictFiled, "retros/c-cycle.md")
	fbGit(t, dir, "fsck", "--strict")
}
