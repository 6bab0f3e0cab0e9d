package retrieve

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// maxBuilders bounds the chunks a first build indexes at once: each holds
// its Docs and the segment bluge builds from them in memory.
const maxBuilders = 4

// build fills an empty index that never recorded a commit with the pages
// changes adds, in chunks of about chunk Docs, and records head. Bluge builds a batch's segment in the
// goroutine that hands it over, so chunks go to index.Add from one
// goroutine per core while this one reads and flattens the next; the last
// chunk, with the deleted paths, goes through Apply, which records head and
// the totals of everything added. Killed before that Apply, the index
// holds documents but no commit, which the next Open reports as corrupt,
// and the index is rebuilt; failed in a process that keeps it, the index
// is no longer empty, and the next update takes Apply's path.
func build(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev, changes []wiki.FileChange, chunk int, progress func(done, total int)) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(min(max(runtime.GOMAXPROCS(0), 1), maxBuilders))
	var deletes []string
	rest, del, err := readChunks(gctx, s, changes, chunk, progress, func(d []index.Doc, del []string) error {
		if err := gctx.Err(); err != nil {
			return err
		}
		deletes = append(deletes, del...)
		g.Go(func() error { return ix.Add(gctx, d) })
		return nil
	})
	if werr := g.Wait(); err == nil {
		err = werr
	}
	if err == nil {
		err = ix.Apply(ctx, string(head), rest, append(deletes, del...))
	}
	if progress != nil && err == nil {
		progress(len(changes), len(changes))
	}
	return err
}
