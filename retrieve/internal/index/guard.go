package index

import (
	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/searcher"
)

// Every term searcher pt builds is wrapped in a finished guard, because of two
// bugs in bluge v0.2.2 that together make searches corrupt later searches:
//
//   - DisjunctionSliceSearcher.Advance (disjunctions of at most ten clauses)
//     advances again a child that already reported its end. For a term
//     searcher that is a seek backwards (its postings iterator still sits on
//     its last document), which bluge serves by restarting the iterator: the
//     finished term matches again.
//   - That restart (index/postings.go, postingsIterator.Advance) returns the
//     iterator to the snapshot's pool and keeps using it, so a later searcher
//     gets the same iterator and two searchers share one cursor.
//
// Filters (a conjunction) and the split text query (a boolean with a should
// clause) both advance disjunctions, so without the guard a question run twice
// gave different hits, and searches on the benchmark index slowed from 10 ms
// to seconds after a few hundred queries. TestSearchesDoNotInterfere keeps it
// fixed.
type finished struct {
	search.Searcher
	done bool
}

func (s *finished) Next(ctx *search.Context) (*search.DocumentMatch, error) {
	if s.done {
		return nil, nil
	}
	m, err := s.Searcher.Next(ctx)
	s.done = m == nil && err == nil
	return m, err
}

func (s *finished) Advance(ctx *search.Context, number uint64) (*search.DocumentMatch, error) {
	if s.done {
		return nil, nil
	}
	m, err := s.Searcher.Advance(ctx, number)
	s.done = m == nil && err == nil
	return m, err
}

// termQuery is bluge's TermQuery with the finished guard: one exact term in
// one field, scored by BM25 times boost (0 for filters, which select without
// scoring).
type termQuery struct {
	term, field string
	boost       float64
}

func (q termQuery) Searcher(r search.Reader, opts search.SearcherOptions) (search.Searcher, error) {
	s, err := searcher.NewTermSearcher(r, q.term, q.field, q.boost, nil, opts)
	if err != nil {
		return nil, err
	}
	return &finished{Searcher: s}, nil
}
