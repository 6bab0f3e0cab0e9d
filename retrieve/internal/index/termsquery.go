package index

import (
	"cmp"
	"slices"

	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/searcher"
	"github.com/blugelabs/bluge/search/similarity"
)

// clause is one term searched in one field with that field's boost.
type clause struct {
	term, field string
	boost       float64
}

// termsQuery is the text part of a Search: the disjunction of its clauses,
// scored as the sum of their BM25 scores. It is a bluge.Query of its own
// because a plain disjunction visits every document holding any clause, and a
// question usually holds a few words that half the space contains: on the
// benchmark index (60,000 pages and sections) that costs 60 ms a search.
//
// So, as Lucene's CommonTermsQuery does, clauses are split by document
// frequency once their postings are known. Rare clauses (and, cheapest first,
// enough common ones to reach minCandidates postings, so that one stray rare
// word cannot narrow the candidates to itself) select the candidates; the
// other common clauses only add their score to candidates; clauses found in
// most documents of their field, whose idf is below log 2, are dropped. Every
// candidate gets the score of every clause kept. Below exactPostings the query
// is the exact disjunction. On the benchmark the split search takes a sixth of
// the time and shares 92% of the exact top ten (BenchmarkSearch reports it as
// top10-agree).
type termsQuery struct {
	clauses []clause
	exact   bool // never split; for tests that measure what splitting costs
}

const (
	minCandidates = 2000 // postings the selecting side covers at least
	rareRatio     = 0.02 // a clause in more than this share of its field's documents is common
	noiseRatio    = 0.5  // one in more than this share is dropped: its idf is below log 2
)

// exactPostings is the total of postings below which nothing is split; a
// variable so that tests can make small indexes take the split path.
var exactPostings uint64 = 20000

func (q *termsQuery) Searcher(r search.Reader, opts search.SearcherOptions) (search.Searcher, error) {
	type found struct {
		s           *finished
		df          uint64
		rare, noise bool
	}
	var all []found
	var total uint64
	docs := map[string]uint64{}
	closeAll := func() {
		for _, f := range all {
			f.s.Close()
		}
	}
	for _, c := range q.clauses {
		ts, err := searcher.NewTermSearcher(r, c.term, c.field, c.boost, nil, opts)
		if err != nil {
			closeAll()
			return nil, err
		}
		df := ts.Count()
		if df == 0 {
			ts.Close()
			continue
		}
		s := &finished{Searcher: ts}
		n, ok := docs[c.field]
		if !ok {
			stats, err := r.CollectionStats(c.field)
			if err != nil {
				s.Close()
				closeAll()
				return nil, err
			}
			if stats != nil {
				n = stats.DocumentCount()
			}
			docs[c.field] = n
		}
		all = append(all, found{s: s, df: df,
			rare:  float64(df) <= rareRatio*float64(n),
			noise: float64(df) > noiseRatio*float64(n)})
		total += df
	}
	if len(all) == 0 {
		return searcher.NewMatchNoneSearcher(r, opts)
	}

	var selecting, scoring []search.Searcher
	if q.exact || total <= exactPostings {
		for _, f := range all {
			selecting = append(selecting, f.s)
		}
	} else {
		slices.SortStableFunc(all, func(a, b found) int { return cmp.Compare(a.df, b.df) })
		var covered uint64
		for _, f := range all {
			switch {
			case f.rare || covered < minCandidates:
				selecting = append(selecting, f.s)
				covered += f.df
			case f.noise:
				f.s.Close()
			default:
				scoring = append(scoring, f.s)
			}
		}
	}
	closeUsed := func() {
		for _, s := range slices.Concat(selecting, scoring) {
			s.Close()
		}
	}
	sum := similarity.NewCompositeSumScorer()
	sel, err := searcher.NewDisjunctionSearcher(r, selecting, 1, sum, opts)
	if err != nil {
		closeUsed()
		return nil, err
	}
	if len(scoring) == 0 {
		return sel, nil
	}
	bonus, err := searcher.NewDisjunctionSearcher(r, scoring, 0, sum, opts)
	if err != nil {
		closeUsed()
		return nil, err
	}
	return searcher.NewBooleanSearcher(sel, bonus, nil, sum, opts)
}
