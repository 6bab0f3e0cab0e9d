package ingest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// derivedWhen is the clock of the derived-index tests: every batch is
// written at a fixed time, never the wall clock's.
var derivedWhen = time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)

// derivedSources are the small space of the reproduction: meeting notes,
// a decision record, a runbook and a chat excerpt.
var derivedSources = []ingest.Source{
	{Title: "Weekly sync 2026-11-18", Kind: "meeting-notes", Body: []byte("# Weekly sync\n\nWe talked about the ledger backlog, the on-call rota and the holiday freeze. Dana will draft the refund plan.\n")},
	{Title: "ADR 7: payment endpoints require an idempotency key", Kind: "decision", Body: []byte("# ADR 7\n\n## Decision\n\nEvery payment endpoint requires an Idempotency-Key header. Replays with the same key return the first response, so a client retry after a timeout never charges twice.\n\n## Consequences\n\nKeys are kept in redis for 24 hours.\n")},
	{Title: "Runbook: ledger queue stuck", Kind: "doc", Body: []byte("# Ledger queue stuck\n\nCheck the consumer lag dashboard, restart the ledger worker, then replay the dead letters.\n")},
	{Title: "Chat: retries and timeouts", Kind: "chat", Body: []byte("# Chat excerpt\n\nsam: do we retry payment calls on timeout?\nkim: yes, the client retries with backoff.\n")},
}

// derivedQuestion is answered by the decision record.
const derivedQuestion = "why do payment endpoints need an idempotency key?"

// TestIncrementalIndexAnswersAsRebuild is the reproduction of an index
// kept batch by batch that judged a question insufficient while a rebuild
// at the same commit answered it: hub, log and spokes are rewritten by
// every batch, and the statistics counted their deleted versions.
func TestIncrementalIndexAnswersAsRebuild(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: "payments", When: derivedWhen})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	kept := retrieve.Open(s, retrieve.Options{})
	defer kept.Close()
	for i, src := range derivedSources {
		src.ApprovedBy, src.When = "dana", derivedWhen.Add(time.Duration(i)*time.Minute)
		if _, err := ingest.Ingest(ctx, s, src); err != nil {
			t.Fatal(err)
		}
		if _, err := kept.Query(ctx, retrieve.Request{Question: derivedQuestion, Now: derivedWhen}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := kept.Status(ctx)
	if err != nil || !st.Current {
		t.Fatalf("status of the kept index: %+v %v", st, err)
	}
	got, want := answers(t, kept, s, []string{derivedQuestion})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the kept index answers unlike a rebuild (-rebuild +kept):\n%s", diff)
	}
	var res retrieve.Result
	if err := json.Unmarshal([]byte(got[0]), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || res.Results[0].Path != "sources/adr-7-payment-endpoints-require-an-idempotency-key.md" {
		t.Errorf("the decision record does not answer: %s", got[0])
	}
}

// answers returns the JSON of `pt query-kb --json` for each question from
// the Engine kept and from an index rebuilt from nothing at the same head.
func answers(t *testing.T, kept *retrieve.Engine, s *wiki.Space, qs []string) (got, want []string) {
	t.Helper()
	ctx := context.Background()
	fresh := retrieve.Open(s, retrieve.Options{IndexDir: t.TempDir()})
	defer fresh.Close()
	if err := fresh.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for _, e := range []*retrieve.Engine{kept, fresh} {
			res, err := e.Query(ctx, retrieve.Request{Question: q, Now: derivedWhen})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.MarshalIndent(res, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if e == kept {
				got = append(got, string(b))
			} else {
				want = append(want, string(b))
			}
		}
	}
	return got, want
}
