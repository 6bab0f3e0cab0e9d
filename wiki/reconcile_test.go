package wiki_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// Pages people change in git between batches (deleted, given another
// topic, added by hand, a spoke deleted) are reflected in the spokes and
// the hub by the next batch, whatever that batch writes.
func TestSpokesFollowPagesEditedInGit(t *testing.T) {
	s, dir := newSpace(t)
	write1 := pageWriter(t)
	put := func(p string, topics ...string) { t.Helper(); write1(s, p, topics...) }
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("pages/pack.md", "storage")
	put("pages/rank.md", "storage")
	put("pages/keep.md", "storage")
	git(t, dir, "rm", "-q", "pages/pack.md")
	data, err := os.ReadFile(filepath.Join(dir, "pages/rank.md"))
	if err != nil {
		t.Fatal(err)
	}
	write("pages/rank.md", strings.Replace(string(data), "- storage", "- ranking", 1))
	write("pages/cache.md", "---\ntitle: cache\ntopics: [storage]\n---\nBody.\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "hand edits")
	put("pages/zstd.md", "storage")

	storage := git(t, dir, "show", "HEAD:topics/storage.md")
	for _, want := range []string{"pages/keep.md", "pages/zstd.md", "pages/cache.md"} {
		if !strings.Contains(storage, want) {
			t.Errorf("storage spoke lacks %s:\n%s", want, storage)
		}
	}
	for _, gone := range []string{"pages/pack.md", "pages/rank.md"} {
		if strings.Contains(storage, gone) {
			t.Errorf("storage spoke still lists %s:\n%s", gone, storage)
		}
	}
	if ranking := git(t, dir, "show", "HEAD:topics/ranking.md"); !strings.Contains(ranking, "pages/rank.md") {
		t.Errorf("ranking spoke lacks pages/rank.md:\n%s", ranking)
	}
	if hub := git(t, dir, "show", "HEAD:index.md"); !strings.Contains(hub, "topics/ranking.md") {
		t.Errorf("hub lacks the ranking topic:\n%s", hub)
	}

	// A spoke deleted by hand is rebuilt with every member, not only the
	// page the next batch writes.
	git(t, dir, "rm", "-q", "topics/storage.md")
	git(t, dir, "commit", "-qm", "drop the spoke")
	put("pages/lz4.md", "storage")
	storage = git(t, dir, "show", "HEAD:topics/storage.md")
	for _, want := range []string{"pages/keep.md", "pages/zstd.md", "pages/cache.md", "pages/lz4.md"} {
		if !strings.Contains(storage, want) {
			t.Errorf("rebuilt storage spoke lacks %s:\n%s", want, storage)
		}
	}
	git(t, dir, "fsck", "--strict")
}

// Reverting the revert of a batch that emptied a topic brings its spoke
// back with the text a person wrote in it.
func TestRevertOfRevertKeepsSpokeText(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "pack", ApprovedBy: "dana", When: t0.Add(time.Hour)},
		func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.Put(ctx, "pages/pack.md", page("Pack", "storage"), wiki.RolePage)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	spoke := filepath.Join(dir, "topics", "storage.md")
	data, err := os.ReadFile(spoke)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spoke, []byte(strings.Replace(string(data), "# storage\n", "# storage\n\nOwned by ann; see the runbook.\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-qam", "describe the topic")
	// The spoke changed after the batch, but it is not one of the batch's
	// own pages, so the revert goes ahead.
	rv, err := s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revert(ctx, rv.Batch, wiki.RevertOptions{ApprovedBy: "dana", When: t0.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got := git(t, dir, "show", "HEAD:topics/storage.md")
	if !strings.Contains(got, "Owned by ann; see the runbook.") || !strings.Contains(got, "pages/pack.md") {
		t.Errorf("spoke after the revert of the revert:\n%s", got)
	}
}

// The space's last batch is found past another space's batches (a space
// nested in this one) and past many commits of other files.
func TestSpokesFollowGitEditsPastOtherCommits(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t)
	inner, _, err := wiki.Init(ctx, filepath.Join(dir, "inner"), wiki.InitOptions{Name: "inner", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	write1 := pageWriter(t)
	put := func(sp *wiki.Space, p string) { t.Helper(); write1(sp, p, "storage") }
	put(s, "pages/pack.md")
	put(s, "pages/keep.md")
	git(t, dir, "rm", "-q", "pages/pack.md")
	git(t, dir, "commit", "-qm", "drop pack")
	put(inner, "pages/other.md") // the inner space's batch is no anchor for the outer one
	// 70 commits of code, more than the 64 the walk once stopped at, made
	// by one git fast-import rather than 140 git processes.
	var stream strings.Builder
	for i := range 70 {
		data := fmt.Sprintf("package main // %d\n", i)
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter person <p@example.com> %d +0000\ndata 4\ncode\n", t0.Unix()+int64(i))
		if i == 0 {
			fmt.Fprintf(&stream, "from refs/heads/main^0\n")
		}
		fmt.Fprintf(&stream, "M 100644 inline main.go\ndata %d\n%s\n", len(data), data)
	}
	fastImport(t, dir, stream.String())
	git(t, dir, "reset", "-q", "--hard")
	put(s, "pages/zstd.md")
	if got := git(t, dir, "show", "HEAD:topics/storage.md"); strings.Contains(got, "pages/pack.md") || !strings.Contains(got, "pages/keep.md") {
		t.Errorf("storage spoke after the hand deletion:\n%s", got)
	}
}

// Lines a person changes inside a spoke's or the hub's generated block are
// replaced by the next batch, as the markers say; their text outside the
// blocks stays.
func TestHandEditsInsideBlocksAreReplaced(t *testing.T) {
	s, dir := newSpace(t)
	write1 := pageWriter(t)
	put := func(p string, topics ...string) { t.Helper(); write1(s, p, topics...) }
	edit := func(p string, f func(string) string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(f(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("pages/a1.md", "storage")
	put("pages/a2.md", "storage")
	put("pages/r1.md", "ranking")
	edit("topics/storage.md", func(s string) string {
		s = strings.Replace(s, "# storage\n", "# storage\n\nOwned by ann.\n", 1)
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "pages/a2.md") {
				keep = append(keep, l)
			}
		}
		return strings.Replace(strings.Join(keep, "\n"), "<!-- /pt:members -->", "- [Ghost](../pages/ghost.md)\n<!-- /pt:members -->", 1)
	})
	edit("index.md", func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "topics/ranking.md") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	})
	git(t, dir, "commit", "-qam", "edit generated lists by hand")
	put("pages/a3.md", "storage")
	got := git(t, dir, "show", "HEAD:topics/storage.md")
	for _, want := range []string{"Owned by ann.", "pages/a1.md", "pages/a2.md", "pages/a3.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("storage spoke lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ghost") {
		t.Errorf("storage spoke keeps a line a person added inside its block:\n%s", got)
	}
	if hub := git(t, dir, "show", "HEAD:index.md"); !strings.Contains(hub, "topics/ranking.md") {
		t.Errorf("hub lacks the ranking topic a person removed from its block:\n%s", hub)
	}
}

// A page people fix only below its frontmatter, so that pt can read it at
// all (its encoding), joins its spoke at the next batch, and one a body
// edit makes unreadable leaves it.
func TestSpokesFollowPagesMadeReadableInGit(t *testing.T) {
	s, dir := newSpace(t)
	write := func(text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pages", "a.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", "edit a")
	}
	write1, n := pageWriter(t), 0
	batch := func() { t.Helper(); n++; write1(s, fmt.Sprintf("pages/b%d.md", n), "other") }
	front := "---\ntitle: A\ntopics: [storage]\n---\n"
	write(front + "Caf\xe9 notes.\n")
	batch()
	write(front + "Café notes.\n")
	batch()
	if got := git(t, dir, "show", "HEAD:topics/storage.md"); !strings.Contains(got, "pages/a.md") {
		t.Errorf("the page made readable is not listed:\n%s", got)
	}
	write(front + "Caf\xe9 again.\n")
	batch()
	if got := git(t, dir, "ls-tree", "--name-only", "HEAD", "topics/"); strings.Contains(got, "storage") {
		t.Errorf("the page made unreadable still has its spoke: %s", got)
	}
}

// pageWriter returns a function that writes one page per batch, each an
// hour after the last, in the space given.
func pageWriter(t *testing.T) func(s *wiki.Space, p string, topics ...string) {
	n := 0
	return func(s *wiki.Space, p string, topics ...string) {
		t.Helper()
		n++
		if _, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: p, ApprovedBy: "dana", When: t0.Add(time.Duration(n) * time.Hour)},
			func(ctx context.Context, tx *wiki.Tx) error {
				_, err := tx.Put(ctx, p, page(strings.TrimSuffix(filepath.Base(p), ".md"), topics...), wiki.RolePage)
				return err
			}); err != nil {
			t.Fatal(err)
		}
	}
}

// fastImport runs git fast-import in dir with the given stream.
func fastImport(t *testing.T, dir, stream string) {
	t.Helper()
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
}
