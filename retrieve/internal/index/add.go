package index

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrApplied is returned by Add on an index that has recorded a commit.
var ErrApplied = errors.New("index already applied to")

// A first build indexes every page of a space. Apply builds each batch's
// segment in its caller's goroutine and one Apply waits for the last (each
// records a commit and the live totals read from the snapshot it follows),
// so a build through Apply alone uses one core for bluge's work. Add is the
// bulk path: batches without the metadata document, which may run at once
// from several goroutines; the totals of what they inserted are kept in
// memory and recorded by the next Apply, with its commit.
//
// Add is only for an index that has never recorded a commit: the
// documents it inserts are then covered by no totals until that Apply,
// and an index holding documents but no metadata document is, on Open, an
// unfinished build (ErrCorrupt), deleted and rebuilt like any damaged
// cache. Once a commit is recorded, totals must follow every batch, so
// Add refuses (ErrApplied) and changes go through Apply.

// Add inserts docs in one bluge batch, without recording a commit. They
// must not share a path or an id with documents already in the index or
// inserted by a concurrent Add: nothing is deleted (which also spares
// bluge the search of every segment for what a batch replaces). It is safe for concurrent use with other
// calls of Add; an Apply waits for the Adds in flight. ctx is checked
// before the batch starts.
func (ix *Index) Add(ctx context.Context, docs []Doc) (err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("add to index: %w", err)
	}
	b, err := buildBatch(docs, nil, false)
	if err != nil {
		return fmt.Errorf("add to index: %w", err)
	}
	ix.applyMu.RLock()
	defer ix.applyMu.RUnlock()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	switch {
	case ix.closed:
		return fmt.Errorf("add to index: %w", ErrClosed)
	case ix.ro != nil:
		return fmt.Errorf("add to index: %w", ErrReadOnly)
	case ix.applied():
		return fmt.Errorf("add to index: %w", ErrApplied)
	}
	if err := ix.w.Batch(b.Batch); err != nil {
		return fmt.Errorf("add to index: %w", err)
	}
	ix.hits.changed()
	ix.pending.addAll(b.lens)
	return nil
}

// pendingTotals are the totals of the documents Add inserted since the
// index was opened, not yet recorded by an Apply.
type pendingTotals struct {
	mu sync.Mutex
	t  liveTotals
}

func (p *pendingTotals) addAll(lens [][]fieldLen) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.t.docs == nil {
		p.t = newTotals()
	}
	for _, ls := range lens {
		p.t.add(ls, 1)
	}
}

// addTo adds the pending totals to t.
func (p *pendingTotals) addTo(t liveTotals) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.t.docs {
		t.docs[i] += p.t.docs[i]
		t.tokens[i] += p.t.tokens[i]
	}
}

// reset forgets the pending totals, once an Apply recorded them.
func (p *pendingTotals) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.t = liveTotals{}
}
