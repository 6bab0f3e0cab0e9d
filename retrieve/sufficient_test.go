package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// newTeamSpace is a new team's space from its first three sources: a
// weekly sync, a postmortem and an architecture decision record.
func newTeamSpace(t *testing.T) *wiki.Space {
	t.Helper()
	s := newSpace(t)
	put(t, s, map[string]string{
		"sources/weekly-sync-2026-11-20.md": page(content.Meta{Title: "Weekly sync 2026-11-20", Kind: content.KindSource},
			"# Weekly sync 2026-11-20\n\nAttendees: Dana, Lee, Sam.\n\n## Updates\n\nThe billing service moved to the new cluster. Lee is writing the migration guide for the ledger.\n\n"+
				"## Action items\n\n- Sam: add alerts on the consumer lag of the order events.\n- Dana: book the design review for the ledger schema.\n"),
		"sources/postmortem-order-events.md": page(content.Meta{Title: "Postmortem: lost order events", Kind: content.KindSource},
			"# Postmortem: lost order events\n\n## Summary\n\nFor forty minutes on 2026-11-12 the checkout published order events that no consumer received.\n\n"+
				"## Cause\n\nA consumer restarted with a new durable name and started from the newest message.\n\n"+
				"## Follow-up\n\nPin durable names in the deployment config; alert when a stream has no consumer.\n"),
		"sources/adr-003-event-bus.md": page(content.Meta{Title: "ADR 003: event bus", Kind: content.KindSource, Summary: "We use NATS JetStream for the event bus, not Kafka."},
			"# ADR 003: event bus\n\nStatus: accepted (2026-10-02)\n\n## Context\n\nServices exchange order and billing events. We compared Kafka and NATS JetStream.\n\n"+
				"## Decision\n\nWe chose NATS with JetStream over Kafka: one small binary to run, streams with durable consumers, and request-reply for the internal RPC calls. "+
				"Kafka needs ZooKeeper or KRaft and a larger team to operate; our volume (a few thousand events a minute) does not need its throughput.\n\n"+
				"## Consequences\n\nEvery service gets a NATS account; event schemas live in the schema registry repository.\n"),
	})
	return s
}

// In a space of three pages, a decision the ADR records is answered, with
// the ADR's decision first, although the question's words ("choose") are
// not the page's ("chose"); a question naming a tool the space never
// mentions is refused, with the nearest pages and the signal.
func TestSmallSpaceAnswersDecision(t *testing.T) {
	eng := openEngine(t, newTeamSpace(t))
	ctx := context.Background()
	res, err := eng.Query(ctx, Request{Question: "Why did we choose NATS over Kafka?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || len(res.Results) == 0 {
		t.Fatalf("refused (%s, coverage %.2f)", res.Trace.Reason, res.Trace.Coverage)
	}
	if top := res.Results[0]; top.Path != "sources/adr-003-event-bus.md" || !strings.Contains(top.Excerpt, "We chose NATS") {
		t.Errorf("first result %s %q, want the ADR's decision", top.Path, top.Excerpt)
	}
	if len(res.Nearest) != 0 {
		t.Errorf("nearest %v on a sufficient answer", res.Nearest)
	}
	if res.Coverage < 0.5 || slices.Contains(res.MissingTerms, "NATS") || slices.Contains(res.MissingTerms, "Kafka") {
		t.Errorf("signal: coverage %.2f, missing %v", res.Coverage, res.MissingTerms)
	}

	res, err = eng.Query(ctx, Request{Question: "How do we rotate the Vault tokens of the billing service?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sufficient || len(res.Results) != 0 || res.Tokens != 0 {
		t.Fatalf("Vault: want insufficient and no results, got %+v", res)
	}
	if !strings.Contains(res.Trace.Reason, `"Vault"`) {
		t.Errorf("reason %q does not name the word the space lacks", res.Trace.Reason)
	}
	if !slices.Contains(res.MissingTerms, "Vault") {
		t.Errorf("missing terms %v lack Vault", res.MissingTerms)
	}
	if len(res.Nearest) == 0 || len(res.Nearest) > 3 || res.Nearest[0].Path != "sources/weekly-sync-2026-11-20.md" {
		t.Fatalf("nearest %+v, want the weekly sync (billing service) first", res.Nearest)
	}
	for _, n := range res.Nearest {
		if n.Title == "" || n.Summary == "" || strings.Contains(n.Summary, "\n") {
			t.Errorf("nearest %+v: want a title and a one-line summary", n)
		}
	}
}

// A question on a subject the space covers, whose detail no page states,
// is answered: the gate is about subjects, and the signal names the word
// the excerpts lack for the caller to see.
func TestUnstatedDetailIsAnswered(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{}
	padSpace(files, "team", "Team note %d", func(i int) string {
		return fmt.Sprintf("# Note %d\n\nHow the team works with interns on release %d, how much and how many reviews each change gets each round, and who is paid for it.\n", i, i)
	})
	files["pages/interns.md"] = page(content.Meta{Title: "Intern programme"},
		"# Intern programme\n\nInterns work on the scheduler with two mentors. The programme has three coordinators, who pick the projects each round.\n")
	files["pages/mentors.md"] = page(content.Meta{Title: "Mentors"},
		"# Mentors\n\nA mentor meets the interns every week and reviews their work. Mentors are paid by their employers.\n")
	put(t, s, files)
	res, err := openEngine(t, s).Query(context.Background(), Request{Question: "How much is the stipend paid to interns who work on the scheduler each round?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || res.Results[0].Path != "pages/interns.md" {
		t.Fatalf("want pages/interns.md first, got sufficient %v (%s)", res.Sufficient, res.Trace.Reason)
	}
	if len(res.MissingTerms) == 0 || res.MissingTerms[0] != "stipend" {
		t.Errorf("missing terms %v, want stipend first", res.MissingTerms)
	}
	if res.Coverage >= 1 || res.Coverage <= 0 {
		t.Errorf("coverage %.3f, want strictly between 0 and 1", res.Coverage)
	}
}

// A question with a word the space never uses is refused when its best page
// holds little of it, and answered when the page holds the rest.
func TestAbsentWordAndLittleCovered(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{}
	padSpace(files, "team", "Team note %d", func(i int) string {
		return fmt.Sprintf("# Note %d\n\nThe team meets on day %d to plan the release and review the open changes.\n", i, i)
	})
	files["pages/expenses.md"] = page(content.Meta{Title: "Travel"},
		"# Travel\n\nBook travel through the office; trains over planes for trips under five hours.\n")
	put(t, s, files)
	eng := openEngine(t, s)
	ctx := context.Background()
	res, err := eng.Query(ctx, Request{Question: "How are reimbursements of conference hotel invoices approved?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sufficient {
		t.Errorf("reimbursements: answered from %v (coverage %.2f)", res.Results[0].Path, res.Trace.Coverage)
	}
	res, err = eng.Query(ctx, Request{Question: "Should I book trains or planes for short travel, hopefully?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || res.Results[0].Path != "pages/expenses.md" {
		t.Errorf("trains: want pages/expenses.md, got sufficient %v (%s)", res.Sufficient, res.Trace.Reason)
	}
}

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"How do I build my Go code with Bazel using rules_go and gazelle?", []string{"Go", "Bazel", "rules_go"}},
		{"What does context.AfterFunc do?", []string{"context.AfterFunc"}},
		{"Can I run it with go vet -vettool?", []string{"vettool"}},
		{"Do we follow the PSR-12 standard for PHP?", []string{"PSR-12", "PHP"}},
		{"I'm new. Where is uber's goleak package? Is it OK?", []string{"OK"}},
		{"Why Did We Choose NATS Over Kafka?", []string{"NATS"}},
		{"what about go 1.27, and the i/o wait?", []string{"i/o"}},
		{"Is the release on Fridays in March or in Q2?", []string{"Q2"}},
	} {
		if got := nameWords(c.q); !cmp.Equal(got, c.want) {
			t.Errorf("nameWords(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestQuestionWord(t *testing.T) {
	for _, c := range []struct{ q, term, want string }{
		{"How much does the foundation pay speakers?", "foundat", "foundation"},
		{"Is Bazel supported?", "bazel", "Bazel"},
		{"what about (GOAMD64=v3)", "nosuchterm", "nosuchterm"},
	} {
		if got := questionWord(c.q, c.term); got != c.want {
			t.Errorf("questionWord(%q, %q) = %q, want %q", c.q, c.term, got, c.want)
		}
	}
}
