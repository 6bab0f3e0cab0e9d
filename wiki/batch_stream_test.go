package wiki_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// TestBatchMemoryIsBounded stages 24 MB of pages in one batch and checks
// that the batch holds a small fraction of it: each page goes into the
// batch's pack as it is staged and only its id stays in memory. The commit
// then holds every page, in git and in the work tree.
func TestBatchMemoryIsBounded(t *testing.T) {
	s, dir := newSpace(t)
	ctx := context.Background()
	const pages, size = 2000, 12 << 10
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("cache leader quorum replica shard index query deploy rollback schema migration latency budget alert")
	text := func(i int) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\n", i)
		for b.Len() < size {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		return []byte(b.String())
	}
	var grown uint64
	res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindImport, Title: "many pages", ApprovedBy: "dana"}, func(ctx context.Context, tx *wiki.Tx) error {
		before := heapInUse()
		for i := range pages {
			pg := content.NewPage(content.Meta{Title: fmt.Sprintf("Page %d", i), Kind: content.KindPage, Topics: []string{fmt.Sprintf("t%d", i%7)}}, text(i))
			if _, err := tx.Put(ctx, fmt.Sprintf("pages/p%d.md", i), pg, wiki.RolePage); err != nil {
				return err
			}
		}
		if after := heapInUse(); after > before {
			grown = after - before
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	staged := uint64(pages * size)
	t.Logf("staged %d MB, the batch's heap grew by %d KB", staged>>20, grown>>10)
	if grown > staged/8 {
		t.Errorf("staging %d MB of pages grew the heap by %d MB: the batch holds its pages", staged>>20, grown>>20)
	}
	if len(res.Pages) < pages {
		t.Fatalf("the batch wrote %d paths, want at least %d", len(res.Pages), pages)
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
	for _, i := range []int{0, pages / 2, pages - 1} {
		p := fmt.Sprintf("pages/p%d.md", i)
		inGit := git(t, dir, "show", "HEAD:"+p)
		onDisk, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(inGit, fmt.Sprintf("# Page %d\n", i)) || strings.TrimSpace(string(onDisk)) != inGit {
			t.Errorf("%s: the commit and the work tree differ or miss the page", p)
		}
	}
	if n := len(strings.Fields(git(t, dir, "ls-files", "topics/"))); n < 7 {
		t.Errorf("%d spokes, want at least 7", n)
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
