package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchRepos caches generated base repositories across the runs of a
// benchmark (the testing package calls it again for each b.N).
var (
	benchMu    sync.Mutex
	benchRepos = map[string]string{}
)

// benchRepo returns a repository holding n files, 100 per directory,
// committed in one batch by Commit itself.
func benchRepo(b *testing.B, n int, bare bool) string {
	key := fmt.Sprint(n, bare)
	benchMu.Lock()
	defer benchMu.Unlock()
	if dir, ok := benchRepos[key]; ok {
		return dir
	}
	ctx := context.Background()
	root, err := os.MkdirTemp("", "gitstore-bench-")
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(root, "repo")
	if bare {
		git(b, root, "init", "-q", "--bare", "-b", "main", dir)
	} else if _, err := Init(ctx, dir, ""); err != nil {
		b.Fatal(err)
	}
	s, err := Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	changes := make([]Change, n)
	for i := range changes {
		changes[i] = Change{Path: benchPath(i), Data: []byte(fmt.Sprintf("# page %d\n\nsome body text for page %d\n", i, i))}
	}
	start := time.Now()
	res, err := s.Commit(ctx, CommitRequest{Changes: changes, Message: "generate", Author: sig(0)})
	if err != nil || res.WorktreeErr != nil {
		b.Fatal(err, res.WorktreeErr)
	}
	b.Logf("generated %d files (bare=%v) in one commit: %v", n, bare, time.Since(start))
	benchRepos[key] = dir
	return dir
}

func benchPath(i int) string { return fmt.Sprintf("kb/pages/d%04d/p%05d.md", i/100, i) }

// BenchmarkCommit measures a 5-file batch into a large repository: the
// cost must follow the size of the change, not of the tree.
//
//	go test -run '^$' -bench BenchmarkCommit -benchtime 200x ./wiki/internal/gitstore/
func BenchmarkCommit(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, bare := range []bool{true, false} {
			name := fmt.Sprintf("files=%d/bare=%v", n, bare)
			b.Run(name, func(b *testing.B) {
				dir := benchRepo(b, n, bare)
				ctx := context.Background()
				s, err := Open(ctx, dir)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					head, err := s.Head(ctx)
					if err != nil {
						b.Fatal(err)
					}
					var ch []Change
					for k := range 5 {
						ch = append(ch, Change{Path: benchPath((i*7919 + k*(n/5)) % n), Data: []byte(fmt.Sprint("edit ", i, k, time.Now().UnixNano()))})
					}
					res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: ch, Message: "bench", Author: sig(i)})
					if err != nil || res.WorktreeErr != nil || len(res.SkippedWorktree) > 0 {
						b.Fatal(err, res.WorktreeErr, res.SkippedWorktree)
					}
				}
			})
		}
	}
}

func cleanupBenchRepos() {
	for _, dir := range benchRepos {
		os.RemoveAll(filepath.Dir(dir))
	}
}

// BenchmarkCommitImport commits a batch of 2,000 new files in 100
// directories (an import's source and summary pages) with a work tree:
// objects as one pack, then the work tree and the index (read, updated and
// written once). "fresh" commits into an empty repository each time,
// "into=10000" into one that holds 10,000 files and grows by 2,000 files per
// iteration.
//
//	go test -run '^$' -bench CommitImport -benchtime 5x ./wiki/internal/gitstore/
func BenchmarkCommitImport(b *testing.B) {
	ctx := context.Background()
	batch := func(prefix string) []Change {
		changes := make([]Change, 2000)
		for i := range changes {
			changes[i] = Change{
				Path: fmt.Sprintf("%s%s/dir%02d/page-%04d.md", prefix, []string{"sources", "summaries"}[i%2], i/2%50, i/2),
				Data: []byte(fmt.Sprintf("---\ntitle: Page %d\n---\n\n# Page %d\n\n%s\n", i, i, strings.Repeat("Some words of the page. ", 40+i%80))),
			}
		}
		return changes
	}
	commitBatch := func(b *testing.B, s *Store, changes []Change) {
		head, err := s.Head(ctx)
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: changes, Message: "import", Author: sig(0)})
		if err != nil || res.WorktreeErr != nil || len(res.SkippedWorktree) > 0 {
			b.Fatal(err, res.WorktreeErr, res.SkippedWorktree)
		}
	}
	b.Run("fresh", func(b *testing.B) {
		changes := batch("")
		for b.Loop() {
			b.StopTimer()
			s, err := Init(ctx, b.TempDir(), "")
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			commitBatch(b, s, changes)
			s.Close()
		}
		b.ReportMetric(float64(len(changes))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("into=10000", func(b *testing.B) {
		s, err := Open(ctx, benchRepo(b, 10_000, false))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			changes := batch(fmt.Sprintf("import%d-%d/", time.Now().UnixNano(), i))
			b.StartTimer()
			commitBatch(b, s, changes)
		}
		b.ReportMetric(2000*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
}
