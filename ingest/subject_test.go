package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSubjectTopics checks that documents without a taxonomy, folder or
// link graph are filed under what they are about: a word that several of
// their titles and headings share, else their own strongest one, never
// the genre of the document or a date.
func TestSubjectTopics(t *testing.T) {
	doc := func(rel, title, body string) *corpusDoc {
		return &corpusDoc{rel: rel, title: title, body: []byte(body)}
	}
	docs := []*corpusDoc{
		doc("pm.md", "Postmortem: ledger writes stalled for 47 minutes", "## Root cause\n\nA migration locked the ledger table.\n"),
		doc("rb.md", "Runbook: replaying the ledger write queue", "## Steps\n\nPause the consumer and replay the queue.\n"),
		doc("adr.md", "ADR-0007: Use NATS JetStream instead of Kafka", "## Decision\n\nWe move the event bus to JetStream. JetStream keeps streams on disk; JetStream consumers ack.\n"),
		doc("sync.md", "Weekly sync 2026-11-24", "## Kafka cluster\n\nThe Kafka cluster is retired in December.\n"),
		doc("howto.md", "How to rotate the signing keys", "## Rotation\n\nRotate the keys every quarter.\n"),
		doc("2026-11-24.md", "2026-11-24", "Notes of the day.\n"),
	}
	subjectTopics(docs)
	got := map[string][]string{}
	for _, d := range docs {
		got[d.rel] = d.topics
	}
	want := map[string][]string{
		"pm.md":         {"ledger"},
		"rb.md":         {"ledger"},
		"adr.md":        {"jetstream"},
		"sync.md":       {"kafka"},
		"howto.md":      {"rotate"},
		"2026-11-24.md": nil,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("topics (-want +got):\n%s", d)
	}
}

// TestSubjectTopicsTooBroad checks that a word every document shares does
// not swallow the corpus: it cannot tell the pages apart.
func TestSubjectTopicsTooBroad(t *testing.T) {
	var docs []*corpusDoc
	for _, title := range []string{"Payments: refunds", "Payments: payouts", "Payments: chargebacks", "Payments: settlement"} {
		docs = append(docs, &corpusDoc{rel: title, title: title, body: []byte("Text.\n")})
	}
	subjectTopics(docs)
	for _, d := range docs {
		if len(d.topics) != 1 || d.topics[0] == "payments" {
			t.Errorf("%s: topics %q, want its own subject", d.title, d.topics)
		}
	}
}
