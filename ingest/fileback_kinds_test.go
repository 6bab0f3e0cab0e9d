package ingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/ingest/internal/sketch"
	"github.com/ptwiki/pt/wiki"
)

// handbookPage is a long page of several sections: an answer that picks
// out one of them in its own words is a synthesis, not an echo.
const handbookPage = `# Payments on-call handbook

## Paging

The on-call engineer is paged through the incident tool when the error rate of
the payments API stays above two percent for five minutes, or when the ledger
consumer lag passes ten thousand messages. Acknowledge the page within five
minutes; after fifteen minutes without an acknowledgement the secondary is paged.

## Declaring an incident

Declare an incident when customers cannot pay, when money may have moved twice,
or when settlement will be late. Open a channel named after the date and the
service, name an incident commander, and post a first status line within ten
minutes. The commander decides when the incident is over.

## Rolling back a deploy

Roll back first and investigate later. The deploy tool keeps the last five
releases of every service; pick the previous release and confirm. A rollback
that touches the ledger schema needs a second engineer to approve it, because a
migration may not be reversible. Note the rollback in the incident channel.

## Refund requests during an incident

Refunds are queued, never dropped, while the ledger is unavailable. Support may
promise a refund but must not issue one by hand: a manual refund bypasses the
idempotency key and can pay out twice when the queue drains. Tell support to
wait for the drain and to check the refund report afterwards.

## Handing over

At the end of a shift write a handover note: open incidents, pages that were
acknowledged but not resolved, and any deploy that was held back. The next
engineer reads it before taking the pager.

## After the incident

Within five working days the incident commander writes a postmortem with a
timeline, the root cause, what went well and badly, and action items with
owners. Postmortems are blameless: they describe what the system let people do.
`

const (
	handbookPath = "pages/payments-on-call-handbook.md"
)

// kindsSpace is the demo space with the long handbook page beside it.
func kindsSpace(t *testing.T, kb string) (*wiki.Space, string) {
	t.Helper()
	s, dir := fbSpace(t, kb)
	pg := content.NewPage(content.Meta{Title: "Payments on-call handbook", Kind: content.KindPage, Topics: []string{"operations"},
		Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}, Created: fbWhen, Updated: fbWhen}, []byte(handbookPage))
	fbPut(t, s, handbookPath, pg, fbWhen)
	return s, dir
}

// TestFileBackKinds runs one consult of each kind the file-back rules tell
// apart, each on a fresh space: live state never files, a synthesis of
// one long page or of several pages files, a copy is an echo.
func TestFileBackKinds(t *testing.T) {
	oneSection := "Don't refund a customer by hand while the ledger is down. Refunds wait in the queue " +
		"and go out when it drains; a hand-made refund skips the idempotency key, so the customer " +
		"can end up paid twice. Support can promise the refund, then check the refund report once " +
		"the queue has drained."
	twoPages := "A replay after an outage is safe to start from the first failed offset because " +
		"every queued write still carries its idempotency key, which the ledger remembers for a day: " +
		"writes that already landed are skipped. Past that day the keys are gone, so a late replay " +
		"has to be compared with the ledger by hand before it runs."
	section := handbookPage[strings.Index(handbookPage, "Refunds are queued"):strings.Index(handbookPage, "## Handing over")]
	tests := []struct {
		name       string
		c          ingest.Consult
		verdict    string
		gate       string
		durability string
		reason     string
	}{
		{name: "live state: blocker still open before a named day",
			c: ingest.Consult{Question: "Which blockers are still open for the release candidate we cut on Friday?",
				Answer: "Two: the refund consumer group and the lock-wait panel. Both owners expect to land fixes before Friday.", Citations: []string{outagePage}},
			verdict: ingest.VerdictSkipped, gate: ingest.GateDurability, durability: "ephemeral", reason: "live state is never filed back"},
		{name: "live state: pending sign-off",
			c: ingest.Consult{Question: "Has the handover note for the payments rota been signed off yet?",
				Answer: "Not yet: the secondary still has to read it before taking the pager.", Citations: []string{handbookPath}},
			verdict: ingest.VerdictSkipped, gate: ingest.GateDurability, durability: "ephemeral"},
		{name: "synthesis of one long page",
			c:       ingest.Consult{Question: "Can support refund a customer by hand during a ledger incident?", Answer: oneSection, Citations: []string{handbookPath}},
			verdict: ingest.VerdictFiled, durability: "durable"},
		{name: "synthesis of two pages",
			c:       ingest.Consult{Question: "From which offset is it safe to replay the ledger write queue?", Answer: twoPages, Citations: []string{replayPage, idemPage}},
			verdict: ingest.VerdictFiled, durability: "durable"},
		{name: "echo: a section pasted",
			c:       ingest.Consult{Question: "Can support refund a customer by hand during a ledger incident?", Answer: section, Citations: []string{handbookPath}},
			verdict: ingest.VerdictSkipped, gate: ingest.GateEcho, durability: "durable", reason: "restates " + handbookPath},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := kindsSpace(t, "")
			before := fbState(t, dir)
			tc.c.When = fbConsult
			v, err := ingest.FileBack(context.Background(), s, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != tc.verdict || v.Gate != tc.gate || v.Durability != tc.durability || !strings.Contains(v.Reason, tc.reason) {
				t.Fatalf("got %s %q %s: %s; want %s %q %s", v.Verdict, v.Gate, v.Durability, v.Reason, tc.verdict, tc.gate, tc.durability)
			}
			if (v.Verdict == ingest.VerdictSkipped) != (fbState(t, dir) == before) {
				t.Errorf("verdict %s, repository changed %v", v.Verdict, fbState(t, dir) != before)
			}
		})
	}
	// The long-page synthesis shares words with its section, as a
	// restatement does, yet far fewer than a copy.
	if sh := sketch.CopiedShare(oneSection, handbookPage); sh >= sketch.DefaultCopy || sh < 0.1 {
		t.Errorf("own-words answer copies %.2f of its word pairs", sh)
	}
	if sh := sketch.CopiedShare(section, handbookPage); sh < 0.99 {
		t.Errorf("a pasted section copies %.2f of its word pairs", sh)
	}
}

// TestFileBackExpiresFromText: a time-bound answer anchored to a date
// expires on that date when it comes before now plus the TTL, and at the
// TTL otherwise.
func TestFileBackExpiresFromText(t *testing.T) {
	tests := []struct {
		question, answer, want string
	}{
		{"Which Redis cluster holds the idempotency keys until 2027-01-15?",
			"The keys live on the payments-cache cluster until 2027-01-15, when they move to the shared cluster.", "2027-01-15"},
		{"Where are idempotency keys stored at the moment?",
			"They are currently in the payments-cache cluster, valid through March 3, 2028 under the current contract.", "2027-02-27"},
		{"Where are idempotency keys stored at the moment?",
			"They are currently in the payments-cache cluster; the move planned until 2026-10-01 never happened.", "2027-02-27"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			s, _ := fbSpace(t, "")
			v, err := ingest.FileBack(context.Background(), s, ingest.Consult{Question: tc.question, Answer: tc.answer, Citations: []string{idemPage}, When: fbConsult})
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != ingest.VerdictFiled || v.Durability != "time_bound" || v.Expires != tc.want {
				t.Fatalf("%s %q %s expires %q: %s; want filed time_bound expiring %s", v.Verdict, v.Gate, v.Durability, v.Expires, v.Reason, tc.want)
			}
			pa, err := s.ReadPage(context.Background(), wiki.Rev(v.Commit), v.Page)
			if err != nil {
				t.Fatal(err)
			}
			if pa.Page.Meta.Expires != tc.want {
				t.Errorf("page expires %q, want %q", pa.Page.Meta.Expires, tc.want)
			}
		})
	}
}

// TestFileBackSameQuestion: the same question asked again in other words
// and answered in other words does not file twice, nor does the same
// question with a new answer; a different question on the same page files.
func TestFileBackSameQuestion(t *testing.T) {
	ctx := context.Background()
	s, dir := kindsSpace(t, "")
	first := ingest.Consult{Question: "What should the on-call engineer do before a rollback that changes the ledger schema?",
		Answer:    "Get a second engineer to approve it first: a ledger schema migration may not be reversible. Otherwise roll back straight away to the previous release and investigate afterwards.",
		Citations: []string{handbookPath}, When: fbConsult}
	v, err := ingest.FileBack(ctx, s, first)
	if err != nil || v.Verdict != ingest.VerdictFiled {
		t.Fatalf("first: %v %+v", err, v)
	}
	filed := v.Page
	tests := []struct {
		name, question, answer, gate, reason string
	}{
		{"same question in other words", "Is a lone engineer allowed to revert a release that touches ledger migrations?",
			"No. Reverting to an earlier release is the first move in general, but when the ledger's schema is involved another engineer must sign off, since the migration might not undo cleanly.",
			ingest.GateNearDuplicate, "the same question as " + filed},
		{"same question, new answer", first.Question,
			"Ask a second engineer to approve, and write the rollback into the incident channel.",
			ingest.GateNearDuplicate, "the same question was answered in " + filed},
		{"another question on the same page", "How soon must the on-call engineer acknowledge a page?",
			"Within five minutes; a page left unacknowledged for fifteen minutes goes to the secondary.", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := fbState(t, dir)
			v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: tc.question, Answer: tc.answer, Citations: []string{handbookPath}, When: fbConsult.Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Gate != tc.gate || !strings.Contains(v.Reason, tc.reason) {
				t.Fatalf("got %s %q: %s; want gate %q with %q", v.Verdict, v.Gate, v.Reason, tc.gate, tc.reason)
			}
			if tc.gate != "" && fbState(t, dir) != before {
				t.Error("a skipped consult changed the repository")
			}
		})
	}
}
