package wiki_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// A member whose path holds spaces or parentheses is listed once, through a
// rewrite of the page and its revert; a line a person adds inside the
// generated block is replaced, not kept as a member with a mangled link.
func TestSpokeEntriesReadBackAsWritten(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	const p = "sources/Deploy Policy (v2).md"
	write := func(summary string, when time.Time) *wiki.Result {
		t.Helper()
		res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: summary, ApprovedBy: "dana", When: when},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, p, content.NewPage(content.Meta{Title: "Deploy policy", Topics: []string{"ops"}, Summary: summary}, []byte("x\n")), wiki.RolePage)
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	write("We deploy on Tuesdays.", t0.Add(time.Hour))
	spoke := filepath.Join(dir, "topics", "ops.md")
	data, err := os.ReadFile(spoke)
	if err != nil {
		t.Fatal(err)
	}
	hand := strings.Replace(string(data), "<!-- /pt:members -->", "- [Git docs](https://git-scm.com/docs) — upstream\n<!-- /pt:members -->", 1)
	if err := os.WriteFile(spoke, []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-qam", "a link inside the block")
	res := write("We deploy on Wednesdays.", t0.Add(2*time.Hour))
	got := git(t, dir, "show", "HEAD:topics/ops.md")
	if n := strings.Count(got, "\n- "); n != 1 || !strings.Contains(got, "Wednesdays") {
		t.Errorf("want the one member, rewritten:\n%s", got)
	}
	if _, err := s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got = git(t, dir, "show", "HEAD:topics/ops.md")
	if n := strings.Count(got, "\n- "); n != 1 || !strings.Contains(got, "Tuesdays") {
		t.Errorf("after the revert, want the one member as before:\n%s", got)
	}
	git(t, dir, "fsck", "--strict")
}

// Members named with "#", "?", ":" or "%" stay listed through later
// rewrites of their spoke.
func TestSpokeKeepsMembersWithURLCharacters(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	paths := []string{"pages/c#.md", "pages/16:9.md", "pages/why?.md", "pages/100%.md", "pages/a.md", "pages/b.md"}
	for i, p := range paths {
		if _, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: p, ApprovedBy: "dana", When: t0.Add(time.Duration(i+1) * time.Hour)},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, p, content.NewPage(content.Meta{Title: p, Topics: []string{"storage"}}, []byte("x\n")), wiki.RolePage)
				return err
			}); err != nil {
			t.Fatal(err)
		}
	}
	got := git(t, dir, "show", "HEAD:topics/storage.md")
	if n := strings.Count(got, "\n- ["); n != len(paths) {
		t.Errorf("spoke lists %d members, want %d:\n%s", n, len(paths), got)
	}
}
