package index

import (
	"cmp"
	"slices"

	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/searcher"
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
	parts   []string // partitions searched (see partitions); statistics span them all
	cache   *snapCache
	exact   bool   // never split; for tests that measure what splitting costs
	below   uint64 // postings below which nothing is split (exactPostings)
}

const (
	minCandidates = 2000 // postings the selecting side covers at least
	rareRatio     = 0.02 // a clause in more than this share of its field's documents is common
	noiseRatio    = 0.5  // one in more than this share is dropped: its idf is below log 2
)

// exactPostings is the total of postings below which nothing is split
// (Index.exactPostings: tests make small indexes take the split path).
const exactPostings = 20000

func (q *termsQuery) Searcher(r search.Reader, opts search.SearcherOptions) (search.Searcher, error) {
	// A clause's searchers, one per partition searched that holds its term.
	// Its document frequency, and the split below, count every partition, so
	// that which documents are candidates and how they score do not depend
	// on the partitions searched.
	type found struct {
		ss          []search.Searcher
		df          uint64
		rare, noise bool
	}
	var all []found
	var total uint64
	fs := q.cache
	closeAll := func() {
		for _, f := range all {
			for _, s := range f.ss {
				s.Close()
			}
		}
	}
	for _, c := range q.clauses {
		f, err := q.clauseSearchers(r, fs, c, opts)
		if err != nil {
			closeAll()
			return nil, err
		}
		if f.df == 0 {
			continue
		}
		n, err := fs.collection(r, c.field)
		if err != nil {
			for _, s := range f.ss {
				s.Close()
			}
			closeAll()
			return nil, err
		}
		all = append(all, found{ss: f.ss, df: f.df,
			rare:  float64(f.df) <= rareRatio*float64(n.DocumentCount()),
			noise: float64(f.df) > noiseRatio*float64(n.DocumentCount())})
		total += f.df
	}

	var selecting, scoring []search.Searcher
	if q.exact || total <= q.below {
		for _, f := range all {
			selecting = append(selecting, f.ss...)
		}
	} else {
		slices.SortStableFunc(all, func(a, b found) int { return cmp.Compare(a.df, b.df) })
		var covered uint64
		for _, f := range all {
			switch {
			case f.rare || covered < minCandidates:
				selecting = append(selecting, f.ss...)
				covered += f.df
			case f.noise:
				for _, s := range f.ss {
					s.Close()
				}
			default:
				scoring = append(scoring, f.ss...)
			}
		}
	}
	if len(selecting) == 0 {
		for _, s := range scoring {
			s.Close()
		}
		return searcher.NewMatchNoneSearcher(r, opts)
	}
	closeUsed := func() {
		for _, s := range slices.Concat(selecting, scoring) {
			s.Close()
		}
	}
	sum := sortedSum{}
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

// clauseHits are a clause's term searchers and its document frequency over
// every partition.
type clauseHits struct {
	ss []search.Searcher
	df uint64
}

// clauseSearchers returns the term searchers of clause c in the partitions
// searched, scored by BM25 with the statistics of every partition summed,
// and the clause's document frequency over all partitions.
func (q *termsQuery) clauseSearchers(r search.Reader, fs *snapCache, c clause, opts search.SearcherOptions) (clauseHits, error) {
	var out clauseHits
	cs, err := fs.collection(r, c.field)
	if err != nil {
		return out, err
	}
	sc := &deferredScorer{}
	for _, part := range allPartitions {
		field := fieldName(part, c.field)
		if cs.parts[part] == 0 {
			continue // no document of this partition has the field
		}
		if !slices.Contains(q.parts, part) {
			n, err := fs.docFreq(r, c.term, field)
			if err != nil {
				return out, err
			}
			out.df += n
			continue
		}
		ts, err := searcher.NewTermSearcher(r, c.term, field, c.boost, sc, opts)
		if err != nil {
			for _, s := range out.ss {
				s.Close()
			}
			return out, err
		}
		n := ts.Count()
		fs.setDocFreq(r, c.term, field, n)
		if n == 0 {
			ts.Close()
			continue
		}
		out.df += n
		out.ss = append(out.ss, &finished{Searcher: ts})
	}
	if out.df > 0 {
		sc.Scorer = bm25Similarity.Scorer(c.boost, cs, docFreq(out.df))
	}
	return out, nil
}
