package index

import (
	"sort"

	"github.com/blugelabs/bluge/search"
)

// pathsFilter selects the documents of a set of paths, adding nothing to the
// score. Navigation filters by a few hundred member pages: as a disjunction
// of term queries, each question looked every path up in every segment's
// dictionary and merged hundreds of postings lists while the text query
// leapfrogged over them. Here the snapshot's documents of each path are
// looked up once (snapCache) and the filter walks one sorted list.
type pathsFilter struct {
	paths []string
	cache *snapCache
}

func (q *pathsFilter) Searcher(r search.Reader, opts search.SearcherOptions) (search.Searcher, error) {
	docs, err := q.cache.pathDocs(r, q.paths)
	if err != nil {
		return nil, err
	}
	return &listSearcher{r: r, docs: docs}, nil
}

// listSearcher matches a sorted list of document numbers, each with score 0.
type listSearcher struct {
	r    search.Reader
	docs []uint64
	i    int
}

func (s *listSearcher) Next(ctx *search.Context) (*search.DocumentMatch, error) {
	if s.i >= len(s.docs) {
		return nil, nil
	}
	dm := ctx.DocumentMatchPool.Get()
	dm.SetReader(s.r)
	dm.Number = s.docs[s.i]
	s.i++
	return dm, nil
}

func (s *listSearcher) Advance(ctx *search.Context, number uint64) (*search.DocumentMatch, error) {
	rest := s.docs[s.i:]
	s.i += sort.Search(len(rest), func(j int) bool { return rest[j] >= number })
	return s.Next(ctx)
}

func (s *listSearcher) Close() error               { return nil }
func (s *listSearcher) Count() uint64              { return uint64(len(s.docs)) }
func (s *listSearcher) Min() int                   { return 0 }
func (s *listSearcher) Size() int                  { return 64 + 8*len(s.docs) }
func (s *listSearcher) DocumentMatchPoolSize() int { return 1 }
