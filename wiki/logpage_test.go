package wiki_test

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
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

// Text a person or an agent wrote (a batch title, a page title or summary)
// may hold a generated block's closing marker; written as it is, it would
// end the block early, and the next batch would splice its entry into the
// middle of an older one or drop members out of their spoke.
func TestMarkersInTextKeepBlocksWhole(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	titles := []string{"why <!-- /pt:log --> is safe", "A <!-- /pt:members --> page", "plain <!-- /pt:topics --> page", "last"}
	for i, title := range titles {
		_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: "dana <!-- /pt:log -->", When: t0.Add(time.Duration(i+1) * time.Hour)},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, fmt.Sprintf("pages/p%d.md", i), page(title, "x"), wiki.RolePage)
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	for f, closer := range map[string]string{"log.md": "<!-- /pt:log -->", "topics/x.md": "<!-- /pt:members -->", "index.md": "<!-- /pt:topics -->"} {
		text := git(t, dir, "show", "HEAD:"+f)
		if n := strings.Count(text, closer); n != 1 {
			t.Errorf("%s holds %d closing markers, want 1:\n%s", f, n, text)
		}
	}
	logText := git(t, dir, "show", "HEAD:log.md")
	for _, id := range batchIDs(t, dir, "HEAD") {
		if !regexp.MustCompile("(?m)^- [^\n]*`" + id + "`[^\n]* · \\d+ pages$").MatchString(logText) {
			t.Errorf("batch %s has no whole entry of its own:\n%s", id, logText)
		}
	}
	spoke := git(t, dir, "show", "HEAD:topics/x.md")
	block := spoke[strings.Index(spoke, "<!-- pt:members"):strings.Index(spoke, "<!-- /pt:members -->")]
	for i := range titles {
		if !strings.Contains(block, fmt.Sprintf("(../pages/p%d.md)", i)) {
			t.Errorf("pages/p%d.md is not listed inside the spoke's block:\n%s", i, spoke)
		}
	}
	if !strings.Contains(block, `A \<!-- /pt:members --\> page`) {
		t.Errorf("the title is not kept, escaped, in the spoke:\n%s", block)
	}
	git(t, dir, "fsck", "--strict")
}

// When a new month moves log.md's entries out, what a person wrote around
// the block stays, and entries of the same second keep their order.
func TestLogMoveKeepsTextAroundTheBlock(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	apply := func(title string, when time.Time) {
		t.Helper()
		if _, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: "dana", When: when},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, "pages/"+title+".md", page(title, "x"), wiki.RolePage)
				return err
			}); err != nil {
			t.Fatal(err)
		}
	}
	apply("first", t0) // the same second as the init batch
	logPath := filepath.Join(dir, "log.md")
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, append(data, "\nTeam note: older entries are in the old wiki.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-qam", "a note")
	apply("december", time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	got := git(t, dir, "show", "HEAD:log.md")
	if !strings.Contains(got, "Team note: older entries are in the old wiki.") || !strings.Contains(got, "[2026-11](log/2026-11.md)") {
		t.Errorf("log.md after the move:\n%s", got)
	}
	arch := git(t, dir, "show", "HEAD:log/2026-11.md")
	if i, j := strings.Index(arch, "· init ·"), strings.Index(arch, "· first ·"); i < 0 || j < i {
		t.Errorf("entries of the same second out of order:\n%s", arch)
	}
}
