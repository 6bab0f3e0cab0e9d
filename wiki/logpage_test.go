package wiki_test

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// A batch dated in a month whose entries were already archived (a batch
// rebuilt by pt sync keeps its date; so does one written with --now) must
// join that month's archive at the next move, not replace it.
func TestLogKeepsEveryEntryAcrossMonths(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	months := []time.Time{
		t0.Add(time.Hour), // 2026-11
		time.Date(2027, 1, 5, 0, 0, 0, 0, time.UTC), // moves November out
		t0.Add(2 * time.Hour),                       // November again, after the move
		time.Date(2027, 2, 5, 0, 0, 0, 0, time.UTC), // moves January and the late November entry
		time.Date(2027, 2, 6, 0, 0, 0, 0, time.UTC),
		time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC),
	}
	for i, when := range months {
		_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: fmt.Sprint("batch ", i), ApprovedBy: "dana", When: when},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, fmt.Sprintf("pages/p%d.md", i), page(fmt.Sprint("P", i), "x"), wiki.RolePage)
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	exists := map[string]bool{}
	for _, f := range strings.Split(git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"), "\n") {
		exists[f] = true
	}
	files := []string{"log.md"}
	files = append(files, strings.Fields(git(t, dir, "ls-tree", "--name-only", "HEAD", "log/"))...)
	var all strings.Builder
	for _, f := range files {
		text := git(t, dir, "show", "HEAD:"+f)
		all.WriteString(text)
		for _, m := range regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(text, -1) {
			target := path.Join(path.Dir(f), m[1])
			if !exists[target] {
				t.Errorf("%s links to %s, which does not exist", f, target)
			}
		}
	}
	for _, id := range batchIDs(t, dir, "HEAD") {
		if n := strings.Count(all.String(), "`"+id+"`"); n != 1 {
			t.Errorf("batch %s has %d log entries, want 1", id, n)
		}
	}
	nov := git(t, dir, "show", "HEAD:log/2026-11.md")
	if i, j := strings.Index(nov, "batch 0"), strings.Index(nov, "batch 2"); i < 0 || j < i {
		t.Errorf("log/2026-11.md lacks its entries or has them out of order:\n%s", nov)
	}
	if got := git(t, dir, "ls-tree", "--name-only", "HEAD", "log/"); got != "log/2026-11.md\nlog/2027-01.md\nlog/2027-02.md" {
		t.Errorf("archives:\n%s", got)
	}
	git(t, dir, "fsck", "--strict")
}
