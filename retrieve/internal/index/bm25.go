package index

import (
	"math"

	segment "github.com/blugelabs/bluge_segment_api"

	"github.com/blugelabs/bluge/search"
	"github.com/blugelabs/bluge/search/similarity"
)

// bm25 is bluge's BM25 (k1 1.2, b 0.75) with the idf it means to compute.
// Bluge v0.2.2 computes log(1 + (N-n) + 0.5/(n+0.5)) for
// log(1 + (N-n+0.5)/(n+0.5)), a precedence slip that makes idf nearly flat
// (about log N for every term), so a common word weighs almost as much as a
// rare one (github.com/blugelabs/bluge pull 151, unmerged). Norms are encoded
// exactly as bluge's own BM25 does, since they are computed at index time by
// bluge's default similarity.
type bm25 struct {
	k1, b float64
}

var bm25Similarity search.Similarity = bm25{k1: 1.2, b: 0.75}

func (bm25) ComputeNorm(numTerms int) float32 {
	return math.Float32frombits(uint32(numTerms))
}

// idf is the BM25 inverse document frequency of a term found in n of the N
// documents that have the field. Bluge's statistics count deleted documents
// until segments merge; n is clamped so that they can never make idf negative.
func idf(n, N uint64) float64 {
	if n > N {
		n = N
	}
	return math.Log(1 + (float64(N)-float64(n)+0.5)/(float64(n)+0.5))
}

func (s bm25) Scorer(boost float64, cs segment.CollectionStats, ts segment.TermStats) search.Scorer {
	var N, sumFreq uint64
	if cs != nil {
		N, sumFreq = cs.DocumentCount(), cs.SumTotalTermFrequency()
	}
	n := ts.DocumentFrequency()
	avgLen := 1.0
	if N > 0 {
		avgLen = float64(sumFreq) / float64(N)
	}
	expl := search.NewExplanation(idf(n, N), "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
		search.NewExplanation(float64(n), "n, number of documents containing term"),
		search.NewExplanation(float64(N), "N, total number of documents with field"))
	return similarity.NewBM25Scorer(boost, s.k1, s.b, avgLen, expl)
}
