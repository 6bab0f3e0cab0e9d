package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
)

// TestFeedbackTerms checks that the word the best sections share, and the
// question lacks, is the one the question is expanded with.
func TestFeedbackTerms(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	put(t, s, map[string]string{
		"pages/a.md":     page(content.Meta{Title: "Pause image"}, "The pause container holds the namespaces of a pod. Bump the pause image first.\n"),
		"pages/b.md":     page(content.Meta{Title: "Sandbox"}, "The sandbox holds the namespaces; its pause container is tiny.\n"),
		"pages/c.md":     page(content.Meta{Title: "Lunch"}, "We order noodles on Fridays.\n"),
		"pages/d.md":     page(content.Meta{Title: "Namespaces"}, "Linux namespaces isolate processes.\n"),
		"pages/e.md":     page(content.Meta{Title: "Other"}, "Nothing to see.\n"),
		"pages/pause.md": page(content.Meta{Title: "Pause"}, "Pause container releases are bumped in order.\n"),
	})
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h, err := eng.acquire(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	defer h.release()
	q := "which container holds the namespaces of a pod?"
	secs, err := h.ix.Search(ctx, index.Query{Text: q, Types: []string{typeSection}, Limit: 20, Fields: plainFields})
	if err != nil {
		t.Fatal(err)
	}
	got, err := eng.feedbackTerms(ctx, h.ix, q, secs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "paus") {
		t.Errorf("feedback terms %v lack the shared word pause", got)
	}
	for _, own := range index.Terms(q) {
		if slices.Contains(got, own) {
			t.Errorf("feedback terms %v repeat the question's %q", got, own)
		}
	}
}
