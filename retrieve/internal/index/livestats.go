package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/search"
)

// BM25 needs, per text field, how many documents have the field and how
// many tokens they hold. Bluge's segments keep both, but count documents
// deleted since the last merge, and a merge recomputes the token total
// wrongly (ice v2.0.1 prepareNewTerm adds a running sum per term): the
// figures would depend on the history of the index and on when bluge
// merged, not on the documents it holds. So pt keeps its own: every
// document stores its fields' analysed lengths (fieldLens), and the
// metadata document holds the totals over live documents (liveTotals),
// updated by each Apply in the same batch. An index is then a function of
// its documents alone, whatever order they came in.

// textFieldNames are the bluge names of every text field, in the order
// lengths and totals are encoded.
var textFieldNames = func() []string {
	var out []string
	for _, part := range allPartitions {
		for _, name := range []string{fieldTitle, fieldHeading, fieldSummary, fieldTopics, fieldBody} {
			out = append(out, fieldName(part, name))
		}
	}
	return out
}()

// textFieldIndex is the position of each text field in textFieldNames.
var textFieldIndex = func() map[string]int {
	m := map[string]int{}
	for i, n := range textFieldNames {
		m[n] = i
	}
	return m
}()

const (
	fieldLens  = "pt_lens"  // stored: a document's text field lengths
	fieldStats = "pt_stats" // stored on the metadata document: liveTotals
)

// fieldLen is a text field's presence and analysed length in one document.
type fieldLen struct {
	field  int // index in textFieldNames
	tokens uint64
}

// encodeLens encodes a document's field lengths: per field, its index and
// its length, as uvarints.
func encodeLens(ls []fieldLen) []byte {
	var b []byte
	for _, l := range ls {
		b = binary.AppendUvarint(b, uint64(l.field))
		b = binary.AppendUvarint(b, l.tokens)
	}
	return b
}

func decodeLens(b []byte) ([]fieldLen, error) {
	var out []fieldLen
	for len(b) > 0 {
		f, n := binary.Uvarint(b)
		if n <= 0 || f >= uint64(len(textFieldNames)) {
			return nil, errors.New("bad field lengths")
		}
		b = b[n:]
		t, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("bad field lengths")
		}
		b = b[n:]
		out = append(out, fieldLen{int(f), t})
	}
	return out, nil
}

// liveTotals are, per text field (indexed as textFieldNames), the live
// documents that have it and the tokens they hold.
type liveTotals struct {
	docs, tokens []uint64
}

func newTotals() liveTotals {
	return liveTotals{docs: make([]uint64, len(textFieldNames)), tokens: make([]uint64, len(textFieldNames))}
}

// add counts a document's lengths in (sign 1) or out (sign -1).
func (t liveTotals) add(ls []fieldLen, sign int) {
	for _, l := range ls {
		if sign > 0 {
			t.docs[l.field]++
			t.tokens[l.field] += l.tokens
		} else {
			t.docs[l.field] = t.docs[l.field] - min(t.docs[l.field], 1)
			t.tokens[l.field] -= min(t.tokens[l.field], l.tokens)
		}
	}
}

func (t liveTotals) encode() []byte {
	var b []byte
	for i := range textFieldNames {
		b = binary.AppendUvarint(b, t.docs[i])
		b = binary.AppendUvarint(b, t.tokens[i])
	}
	return b
}

func decodeTotals(b []byte) (liveTotals, error) {
	t := newTotals()
	for i := range textFieldNames {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return t, errors.New("bad index totals")
		}
		b = b[n:]
		k, n := binary.Uvarint(b)
		if n <= 0 {
			return t, errors.New("bad index totals")
		}
		b = b[n:]
		t.docs[i], t.tokens[i] = d, k
	}
	return t, nil
}

// snapshotTotals reads the totals the metadata document of snapshot r
// holds; zeros for an index never applied to.
func snapshotTotals(r search.Reader) (liveTotals, error) {
	it, err := r.PostingsIterator([]byte(metaID), fieldID, false, false, false)
	if err != nil {
		return liveTotals{}, err
	}
	post, err := it.Next()
	if err != nil {
		it.Close()
		return liveTotals{}, err
	}
	if post == nil {
		it.Close()
		return newTotals(), nil
	}
	// The posting lives in the iterator, which Close hands back to the
	// snapshot for another search to reuse: its number is taken first.
	num := post.Number()
	it.Close()
	var raw []byte
	found := false
	err = r.VisitStoredFields(num, func(field string, value []byte) bool {
		if field == fieldStats {
			raw, found = append([]byte(nil), value...), true
		}
		return true
	})
	if err != nil {
		return liveTotals{}, err
	}
	if !found {
		return liveTotals{}, fmt.Errorf("%w: the index metadata has no totals", ErrCorrupt)
	}
	return decodeTotals(raw)
}

// nextTotals returns the totals after a batch that deletes every live
// document of paths and of ids and inserts docs: the totals of r and of
// the documents Add inserted (pending), less the lengths of the documents
// deleted, plus those of the documents inserted.
func nextTotals(ctx context.Context, r *bluge.Reader, pending *pendingTotals, paths, ids []string, docs [][]fieldLen) (liveTotals, error) {
	m, err := readMeta(ctx, r)
	if err != nil {
		return liveTotals{}, err
	}
	t := m.totals
	pending.addTo(t)
	if len(paths)+len(ids) > 0 {
		q := bluge.NewBooleanQuery().SetMinShould(1)
		for _, p := range paths {
			q.AddShould(termQuery{term: p, field: fieldPath})
		}
		for _, id := range ids {
			q.AddShould(termQuery{term: id, field: fieldID})
		}
		it, err := r.Search(ctx, bluge.NewAllMatches(q))
		if err != nil {
			return liveTotals{}, err
		}
		for {
			m, err := it.Next()
			if err != nil {
				return liveTotals{}, err
			}
			if m == nil {
				break
			}
			var ls []fieldLen
			var derr error
			if err := m.VisitStoredFields(func(field string, value []byte) bool {
				if field == fieldLens {
					ls, derr = decodeLens(value)
				}
				return true
			}); err != nil {
				return liveTotals{}, err
			}
			if derr != nil {
				return liveTotals{}, fmt.Errorf("%w: %w", ErrCorrupt, derr)
			}
			t.add(ls, -1)
		}
	}
	for _, d := range docs {
		t.add(d, 1)
	}
	return t, nil
}
