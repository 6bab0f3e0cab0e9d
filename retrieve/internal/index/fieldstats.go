package index

import (
	"slices"
	"sync"

	segment "github.com/blugelabs/bluge_segment_api"

	"github.com/blugelabs/bluge/search"
)

// snapCache keeps what the searches of one index snapshot look up again and
// again: BM25's statistics of a text field summed over its partitions (see
// partitions), so that scores are those of one field shared by every unit
// type; the document frequency of each (term, field); and the documents of
// each path, for path filters. One query runs several searches with the same
// terms, and a server answers many queries between two commits; a snapshot
// never changes, so nothing here can be stale. A new snapshot (after Apply,
// or after bluge merges segments) empties it.
type snapCache struct {
	mu    sync.Mutex
	snap  search.Reader // the snapshot the maps describe; held only as a key
	coll  map[string]*collStats
	df    map[[2]string]uint64 // field, term
	paths map[string][]uint64

	totals    liveTotals // the live documents' field totals
	hasTotals bool
}

// maxSnapEntries bounds the document frequencies and paths kept.
const maxSnapEntries = 1 << 16

// at locks c for snapshot r, emptying it when r is another snapshot; the
// caller unlocks c.mu.
func (c *snapCache) at(r search.Reader) {
	c.mu.Lock()
	if c.snap != r || len(c.df) > maxSnapEntries || len(c.paths) > maxSnapEntries {
		c.snap = r
		c.coll = map[string]*collStats{}
		c.df = map[[2]string]uint64{}
		c.paths = map[string][]uint64{}
		c.totals, c.hasTotals = liveTotals{}, false
	}
}

// collection returns the statistics of base field name over all partitions.
func (c *snapCache) collection(r search.Reader, name string) (*collStats, error) {
	c.at(r)
	cs := c.coll[name]
	c.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	t, err := c.liveTotals(r)
	if err != nil {
		return nil, err
	}
	cs = &collStats{parts: map[string]uint64{}}
	for _, part := range allPartitions {
		i := textFieldIndex[fieldName(part, name)]
		cs.docs += t.docs[i]
		cs.terms += t.tokens[i]
		cs.parts[part] = t.docs[i]
	}
	c.at(r)
	c.coll[name] = cs
	c.mu.Unlock()
	return cs, nil
}

// liveTotals returns the live documents' field totals of snapshot r.
func (c *snapCache) liveTotals(r search.Reader) (liveTotals, error) {
	c.at(r)
	t, ok := c.totals, c.hasTotals
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := snapshotTotals(r)
	if err != nil {
		return t, err
	}
	c.at(r)
	c.totals, c.hasTotals = t, true
	c.mu.Unlock()
	return t, nil
}

// docFreq is the number of documents holding term in one (partitioned)
// field, read from its postings list without iterating it.
func (c *snapCache) docFreq(r search.Reader, term, field string) (uint64, error) {
	c.at(r)
	n, ok := c.df[[2]string{field, term}]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	it, err := r.PostingsIterator([]byte(term), field, false, false, false)
	if err != nil {
		return 0, err
	}
	n = it.Count()
	if err := it.Close(); err != nil {
		return 0, err
	}
	c.setDocFreq(r, term, field, n)
	return n, nil
}

func (c *snapCache) setDocFreq(r search.Reader, term, field string, n uint64) {
	c.at(r)
	c.df[[2]string{field, term}] = n
	c.mu.Unlock()
}

// partDocFreq is docFreq of term in base field name summed over every
// partition that has the field.
func (c *snapCache) partDocFreq(r search.Reader, term, name string) (uint64, error) {
	cs, err := c.collection(r, name)
	if err != nil {
		return 0, err
	}
	var df uint64
	for _, part := range allPartitions {
		if cs.parts[part] == 0 {
			continue
		}
		n, err := c.docFreq(r, term, fieldName(part, name))
		if err != nil {
			return 0, err
		}
		df += n
	}
	return df, nil
}

// pathDocs returns the snapshot's document numbers of the given paths,
// sorted.
func (c *snapCache) pathDocs(r search.Reader, paths []string) ([]uint64, error) {
	var out []uint64
	for _, p := range paths {
		c.at(r)
		docs, ok := c.paths[p]
		c.mu.Unlock()
		if !ok {
			it, err := r.PostingsIterator([]byte(p), fieldPath, false, false, false)
			if err != nil {
				return nil, err
			}
			for {
				post, err := it.Next()
				if err != nil {
					it.Close()
					return nil, err
				}
				if post == nil {
					break
				}
				docs = append(docs, post.Number())
			}
			if err := it.Close(); err != nil {
				return nil, err
			}
			c.at(r)
			c.paths[p] = docs
			c.mu.Unlock()
		}
		out = append(out, docs...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// collStats is a segment.CollectionStats summed over partitions, over live
// documents only (livestats.go).
type collStats struct {
	docs, terms uint64
	parts       map[string]uint64 // documents with the field, per partition
}

func (c *collStats) TotalDocumentCount() uint64    { return c.docs }
func (c *collStats) DocumentCount() uint64         { return c.docs }
func (c *collStats) SumTotalTermFrequency() uint64 { return c.terms }
func (c *collStats) Merge(o segment.CollectionStats) {
	c.docs += o.DocumentCount()
	c.terms += o.SumTotalTermFrequency()
}

// docFreq is a segment.TermStats.
type docFreq uint64

func (d docFreq) DocumentFrequency() uint64 { return uint64(d) }

// deferredScorer lets a term searcher be built before its scorer is known:
// BM25 needs the term's frequency over every partition, counted from the
// searchers themselves.
type deferredScorer struct {
	search.Scorer
}
