package ingest_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ptwiki/pt/ingest"
)

// TestImportOnMovedHead lands another batch while an import is reading its
// corpus. The import renders its pages before it takes the write lock and
// then lets their text go, so on the new head it prepares them again: the
// file the other batch imported is unchanged, the others are new, and the
// import's commit sits on the other batch's.
func TestImportOnMovedHead(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	corpus := filepath.Join(t.TempDir(), "corpus")
	writeFile(t, filepath.Join(corpus, "a.md"), "# Alpha\n\nThe cache rolls back. See [beta](b.md).\n")
	writeFile(t, filepath.Join(corpus, "b.md"), "# Beta\n\nThe shard leader is elected.\n")
	writeFile(t, filepath.Join(corpus, "c.md"), "# Gamma\n\nRetries back off.\n")
	first := filepath.Join(t.TempDir(), "corpus")
	writeFile(t, filepath.Join(first, "a.md"), "# Alpha\n\nThe cache rolls back. See [beta](b.md).\n")

	var once sync.Once
	var other string
	opts := ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour)}
	opts.Progress = func(done, total int) {
		once.Do(func() {
			o := ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(30 * time.Minute)}
			res, err := ingest.Import(ctx, s, first, o)
			if err != nil {
				t.Errorf("the other import: %v", err)
				return
			}
			other = res.Commit
		})
	}
	res, err := ingest.Import(ctx, s, corpus, opts)
	if err != nil {
		t.Fatal(err)
	}
	if other == "" {
		t.Fatal("the other batch did not land")
	}
	if res.Imported != 2 || res.UnchangedFiles != 1 || res.Updated != 0 {
		t.Errorf("imported %d, unchanged %d, updated %d; want 2, 1, 0", res.Imported, res.UnchangedFiles, res.Updated)
	}
	if got := git(t, dir, "rev-parse", "HEAD~1"); got != other {
		t.Errorf("the import's parent is %s, want the other batch %s", got, other)
	}
	for _, p := range []string{"sources/a.md", "sources/b.md", "sources/c.md", "summaries/c.md"} {
		git(t, dir, "cat-file", "-e", "HEAD:"+p)
	}
	if msg := git(t, dir, "log", "-1", "--format=%s"); msg != "import: import corpus (3 files)" {
		t.Errorf("subject %q", msg)
	}
}
