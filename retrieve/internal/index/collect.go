package index

import (
	"container/heap"
	"context"
	"slices"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/search"
)

// topScores is bluge's TopNSearch sorted by score with a collector of its
// own. Bluge's TopN collector encodes every candidate's score as a sort key
// (an allocation per document matched, thousands per search) and compares
// the keys as bytes; this one compares the float scores. The result is the
// same: the n best by score, ties going to the earlier document, as bluge
// orders them.
type topScores struct {
	*bluge.TopNSearch
	n int
}

func newTopScores(n int, q bluge.Query) topScores {
	return topScores{TopNSearch: bluge.NewTopNSearch(n, q), n: n}
}

func (s topScores) Collector() search.Collector { return &scoreCollector{n: s.n} }

type scoreCollector struct {
	n    int
	best matchHeap // the n best so far, worst on top
}

// checkDoneEvery is how many matches pass between checks of ctx.
const checkDoneEvery = 1024

func (c *scoreCollector) Collect(ctx context.Context, aggs search.Aggregations, s search.Collectible) (search.DocumentMatchIterator, error) {
	defer s.Close()
	sctx := search.NewSearchContext(c.n+1+s.DocumentMatchPoolSize(), 0)
	hits := 0
	for {
		if hits%checkDoneEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, err := s.Next(sctx)
		if err != nil {
			return nil, err
		}
		if m == nil {
			break
		}
		hits++
		m.HitNumber = hits
		switch {
		case len(c.best) < c.n:
			heap.Push(&c.best, m)
		case better(m, c.best[0]):
			sctx.DocumentMatchPool.Put(c.best[0])
			c.best[0] = m
			heap.Fix(&c.best, 0)
		default:
			sctx.DocumentMatchPool.Put(m)
		}
	}
	out := slices.Clone([]*search.DocumentMatch(c.best))
	slices.SortFunc(out, func(a, b *search.DocumentMatch) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return &matchList{ms: out, bucket: search.NewBucket("", aggs)}, nil
}

func (c *scoreCollector) Size() int        { return 64 }
func (c *scoreCollector) BackingSize() int { return c.n + 1 }

// better orders matches as bluge's score sort does: higher score first,
// then the earlier match.
func better(a, b *search.DocumentMatch) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.HitNumber < b.HitNumber
}

// matchHeap is a heap of matches with the worst on top.
type matchHeap []*search.DocumentMatch

func (h matchHeap) Len() int           { return len(h) }
func (h matchHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h matchHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *matchHeap) Push(x any)        { *h = append(*h, x.(*search.DocumentMatch)) }
func (h *matchHeap) Pop() any {
	old := *h
	m := old[len(old)-1]
	*h = old[:len(old)-1]
	return m
}

// matchList iterates the collected matches, best first.
type matchList struct {
	ms     []*search.DocumentMatch
	bucket *search.Bucket
}

func (l *matchList) Next() (*search.DocumentMatch, error) {
	if len(l.ms) == 0 {
		return nil, nil
	}
	m := l.ms[0]
	l.ms = l.ms[1:]
	return m, nil
}

func (l *matchList) Aggregations() *search.Bucket { return l.bucket }
