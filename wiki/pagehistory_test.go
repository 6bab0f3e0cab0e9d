package wiki_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/wiki"
)

// TestPageHistory: a page's history is the commits git log names for its
// path, each with the blob the page had after it, a deletion included.
func TestPageHistory(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	write := func(i int, p, title string) {
		t.Helper()
		_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: "dana", When: t0.Add(time.Duration(i) * time.Hour)},
			func(ctx context.Context, tx *wiki.Tx) error {
				if title == "" {
					return tx.Delete(ctx, p, wiki.RolePage)
				}
				_, err := tx.Put(ctx, p, page(title, "storage"), wiki.RolePage)
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	write(1, "pages/a.md", "First")
	write(2, "pages/b.md", "Other")
	write(3, "pages/a.md", "Second")
	git(t, dir, "commit", "--allow-empty", "-q", "-m", "a person's empty commit")
	write(4, "pages/a.md", "")
	write(5, "pages/a.md", "Third")

	hs, err := s.PageHistory(ctx, "pages/a.md", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, h.Hash+" "+h.Revision)
	}
	var want []string
	for _, c := range strings.Fields(git(t, dir, "log", "--first-parent", "--format=%H", "--", "pages/a.md")) {
		blob := ""
		if strings.Contains(git(t, dir, "ls-tree", "--name-only", c, "pages/"), "pages/a.md") {
			blob = git(t, dir, "rev-parse", c+":pages/a.md")
		}
		want = append(want, c+" "+blob)
	}
	if len(want) != 4 {
		t.Fatalf("git log names %d commits, want 4", len(want))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("history (-git +PageHistory):\n%s", d)
	}
	if hs[1].Revision != "" || hs[1].Batch == nil || hs[1].Batch.ApprovedBy != "dana" {
		t.Errorf("the deletion: %+v", hs[1])
	}
	if two, err := s.PageHistory(ctx, "pages/a.md", 2); err != nil || len(two) != 2 || two[1].Hash != hs[1].Hash {
		t.Errorf("PageHistory(max 2) = %d revisions, %v", len(two), err)
	}
	if none, err := s.PageHistory(ctx, "pages/never.md", 0); err != nil || len(none) != 0 {
		t.Errorf("PageHistory(never written) = %v, %v", none, err)
	}
}
