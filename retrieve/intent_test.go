package retrieve

import (
	"context"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
)

// A "when" question gets the section that states the date, a "why did we
// choose" question the one that states the decision, before the discussion
// around it that shares more of the question's words; a section of only a
// status line never stands for its page.
func TestExcerptAnswersTheAsk(t *testing.T) {
	s := newSpace(t)
	put(t, s, map[string]string{
		"pages/release-train.md": page(content.Meta{Title: "Release train"},
			"# Release train\n\n## Status\n\nStatus: accepted\n\n"+
				"## Discussion\n\nThe release train was discussed at length: when to cut the release, when to freeze the release branch, "+
				"who cuts the release, and whether the release train should stop for holidays. The release is cut by the release captain.\n\n"+
				"## Schedule\n\nThe next cut is on 2026-12-14; the branch freezes two days before.\n\n"+
				"## Outcome\n\nWe keep a fortnightly train and skip the last one of the year.\n"),
		"pages/other.md": page(content.Meta{Title: "Other"}, "# Other\n\nNothing about trains.\n"),
	})
	eng := openEngine(t, s)
	ctx := context.Background()
	for _, c := range []struct{ q, want string }{
		{"When is the release cut?", "2026-12-14"},
		{"Why did we choose a fortnightly release train?", "We keep a fortnightly train"},
	} {
		res, err := eng.Query(ctx, Request{Question: c.q, Now: testWhen})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Sufficient || !strings.Contains(res.Results[0].Excerpt, c.want) {
			t.Errorf("%q: first excerpt %q, want the one with %q", c.q, res.Results[0].Excerpt, c.want)
		}
	}
	res, err := eng.Query(ctx, Request{Question: "What is the status of the release train?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if ex := res.Results[0].Excerpt; strings.TrimSpace(strings.TrimPrefix(ex, "## Status")) == "Status: accepted" {
		t.Errorf("the excerpt is only a status line: %q", ex)
	}
}

func TestQuestionIntent(t *testing.T) {
	for q, want := range map[string]intent{
		"Why did we choose NATS over Kafka?":        askDecision,
		"Why do we use squash merges?":              askDecision,
		"When is the next release cut?":             askDate,
		"What date does the freeze start?":          askDate,
		"How do I deploy the billing service?":      askOther,
		"Why is the index keyed by commit?":         askOther,
		"why did the team go with trunk-based dev?": askDecision,
	} {
		if got := questionIntent(q); got != want {
			t.Errorf("questionIntent(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestHasText(t *testing.T) {
	for body, want := range map[string]bool{
		"## Status\n\nStatus: accepted\n":                     false,
		"# Title\n\n---\n":                                    false,
		"**Date:** 2026-10-02\nOwner: dana\n":                 false,
		"## Decision\n\nWe chose NATS over Kafka: smaller.\n": true,
		"Attendees met and agreed on the plan for the week.":  true,
	} {
		if got := hasText(body); got != want {
			t.Errorf("hasText(%q) = %v, want %v", body, got, want)
		}
	}
}
