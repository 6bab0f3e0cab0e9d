package retrieve

import (
	"context"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
)

// What Query keeps between questions is keyed by commit or blob: a new
// commit that resolves a finding, retitles a page or changes a spoke is seen
// by the next question.
func TestQueryCachesFollowCommits(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	const q = "which git commit does the full-text index reflect?"
	ask := func() *Result {
		t.Helper()
		res, err := eng.Query(ctx, Request{Question: q, Now: testWhen})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Sufficient || len(res.Results) == 0 || res.Results[0].Path != "pages/storage.md" {
			t.Fatalf("want pages/storage.md first, got %+v", res)
		}
		return res
	}
	first := ask()
	if !first.Results[0].NeedsReview || first.Results[0].Title != "Why the index is keyed by commit" {
		t.Fatalf("first answer: %+v", first.Results[0])
	}
	if again := ask(); again.Results[0].Revision != first.Results[0].Revision || !again.Results[0].NeedsReview {
		t.Errorf("same commit, another answer: %+v", again.Results[0])
	}
	put(t, s, map[string]string{
		lint.FindingsPath: `{"findings":[{"id":"f1","check":"orphan_page","severity":"warning","path":"pages/storage.md","message":"orphan","status":"resolved"}]}`,
		"pages/storage.md": page(content.Meta{Title: "The index records its commit", Topics: []string{"storage"}},
			"# Keyed by commit\n\nThe full-text index records the git commit it reflects, so that an update diffs that commit against HEAD.\n"),
	})
	after := ask()
	head, _ := s.Head(ctx)
	_, blob, err := s.ReadFile(ctx, head, "pages/storage.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Results[0]; got.NeedsReview || got.Revision != blob || got.Title != "The index records its commit" {
		t.Errorf("after the commit: needs_review %v, revision %s (git %s), title %q", got.NeedsReview, got.Revision, blob, got.Title)
	}
}
