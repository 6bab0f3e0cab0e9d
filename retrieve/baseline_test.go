package retrieve

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ptwiki/pt/content"
)

// The plain baseline searches the pages as their files hold them: a
// summary's words and a page's folders, which pt's own index adds, find
// nothing there, while BM25 over pt's index finds both.
func TestPlainBaselineSearchesFilesOnly(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	put(t, s, map[string]string{
		"sources/sig-network/chair.md": page(content.Meta{Title: "Chair role", Kind: content.KindSource},
			"A chair runs the meetings and keeps the roadmap.\n"),
		"summaries/sig-network/chair.md": page(content.Meta{Title: "Chair role", Kind: content.KindSummary},
			"The leader of the group facilitates its calls.\n"),
		"pages/meetings.md": page(content.Meta{Title: "Meetings"}, "Meetings are recorded.\n"),
	})
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := newPlainBM25(ctx, s, head)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	h, err := eng.acquire(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	defer h.release()
	req := withDefaults(Request{})
	for _, c := range []struct {
		question    string
		plain, ours []string
	}{
		{"who facilitates the calls", nil, []string{"summaries/sig-network/chair.md"}},
		{"network chair", []string{"sources/sig-network/chair.md"}, []string{"sources/sig-network/chair.md", "summaries/sig-network/chair.md"}},
		{"network", nil, []string{"sources/sig-network/chair.md", "summaries/sig-network/chair.md"}},
		{"roadmap meetings", []string{"sources/sig-network/chair.md", "pages/meetings.md"}, nil},
	} {
		got, _, err := plain.search(ctx, c.question, req)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.plain, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("plain %q (-want +got):\n%s", c.question, diff)
		}
		if c.ours == nil {
			continue
		}
		got, _, err = bm25Pages(ctx, h.ix, c.question, req)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.ours, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("pt index %q (-want +got):\n%s", c.question, diff)
		}
	}
}
