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
// the keys as bytes; this one compares the float scores. Ties go to the
// smaller id, read only for them: bluge gives them to the earlier
// document, and which document is earlier depends on the order documents
// were applied in, so that an index updated batch by batch would keep
// other documents at the cut than one built at once.
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
		case len(c.best.ms) < c.n:
			heap.Push(&c.best, m)
		case c.best.better(m, c.best.ms[0]):
			c.best.forget(c.best.ms[0])
			sctx.DocumentMatchPool.Put(c.best.ms[0])
			c.best.ms[0] = m
			heap.Fix(&c.best, 0)
		default:
			c.best.forget(m)
			sctx.DocumentMatchPool.Put(m)
		}
	}
	if c.best.err != nil {
		return nil, c.best.err
	}
	out := slices.Clone(c.best.ms)
	slices.SortFunc(out, func(a, b *search.DocumentMatch) int {
		if c.best.better(a, b) {
			return -1
		}
		return 1
	})
	return &matchList{ms: out, bucket: search.NewBucket("", aggs)}, nil
}

func (c *scoreCollector) Size() int        { return 64 }
func (c *scoreCollector) BackingSize() int { return c.n + 1 }

// matchHeap is a heap of matches with the worst on top. Matches of equal
// score are ordered by id, loaded once per match and forgotten when the
// match goes back to the pool.
type matchHeap struct {
	ms  []*search.DocumentMatch
	ids map[*search.DocumentMatch]string
	err error // the first id that could not be read
}

// better orders matches by higher score, then by smaller id.
func (h *matchHeap) better(a, b *search.DocumentMatch) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return h.id(a) < h.id(b)
}

func (h *matchHeap) id(m *search.DocumentMatch) string {
	if id, ok := h.ids[m]; ok {
		return id
	}
	var id string
	err := m.VisitStoredFields(func(field string, value []byte) bool {
		if field == fieldID {
			id = string(value)
			return false
		}
		return true
	})
	if err != nil && h.err == nil {
		h.err = err
	}
	if h.ids == nil {
		h.ids = map[*search.DocumentMatch]string{}
	}
	h.ids[m] = id
	return id
}

func (h *matchHeap) forget(m *search.DocumentMatch) { delete(h.ids, m) }

func (h *matchHeap) Len() int           { return len(h.ms) }
func (h *matchHeap) Less(i, j int) bool { return h.better(h.ms[j], h.ms[i]) }
func (h *matchHeap) Swap(i, j int)      { h.ms[i], h.ms[j] = h.ms[j], h.ms[i] }
func (h *matchHeap) Push(x any)         { h.ms = append(h.ms, x.(*search.DocumentMatch)) }
func (h *matchHeap) Pop() any {
	m := h.ms[len(h.ms)-1]
	h.ms = h.ms[:len(h.ms)-1]
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
