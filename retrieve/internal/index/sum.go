package index

import (
	"slices"

	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/similarity"
)

// sortedSum scores a document matched by several clauses as the sum of
// their scores, added in ascending order. Bluge's sum adds them in the
// order its disjunction meets them, which follows where the clauses'
// postings sit in the segments, so that the same document in the same
// index contents scored differently in the last bits depending on the
// order its documents were applied in, and equal scores stopped being
// equal.
type sortedSum struct{}

func (sortedSum) ScoreComposite(ms []*search.DocumentMatch) float64 {
	var buf [16]float64
	xs := buf[:0]
	for _, m := range ms {
		xs = append(xs, m.Score)
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum
}

func (sortedSum) ExplainComposite(ms []*search.DocumentMatch) *search.Explanation {
	return similarity.NewCompositeSumScorer().ExplainComposite(ms)
}
