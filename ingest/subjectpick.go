package ingest

import (
	"container/heap"
	"strings"
	"sync"
)

// lexicon numbers the words of a corpus's subjects, so that each document
// keeps numbers instead of strings, and counts the forms their stems take
// in titles and headings.
type lexicon struct {
	mu    sync.Mutex
	ids   map[string]int32
	words []string
	forms map[formKey]int
}

// formKey is one surface form of a stem, both by number.
type formKey struct{ stem, surface int32 }

func newLexicon() *lexicon {
	return &lexicon{ids: map[string]int32{}, forms: map[formKey]int{}}
}

// id returns w's number, giving it one when new. The caller holds mu. A
// new word is copied: it may be a slice of a whole text.
func (lx *lexicon) id(w string) int32 {
	if id, ok := lx.ids[w]; ok {
		return id
	}
	w = strings.Clone(w)
	id := int32(len(lx.words))
	lx.ids[w] = id
	lx.words = append(lx.words, w)
	return id
}

// surfaces returns, for each stem with forms, the form that names its
// topic: the commonest, the shorter on a tie ("payments" and "payment"
// name one topic), then the first in byte order.
func (lx *lexicon) surfaces() map[int32]string {
	type pick struct {
		form string
		n    int
	}
	best := map[int32]pick{}
	for k, n := range lx.forms {
		f := lx.words[k.surface]
		b, ok := best[k.stem]
		if !ok || n > b.n || n == b.n && (len(f) < len(b.form) || len(f) == len(b.form) && f < b.form) {
			best[k.stem] = pick{f, n}
		}
	}
	out := make(map[int32]string, len(best))
	for s, p := range best {
		out[s] = p.form
	}
	return out
}

// member is one document holding a candidate word, and the word's weight
// in it.
type member struct {
	doc    int32
	weight float64
}

// candidate is a word in the greedy choice of pickSubjects: the count of
// documents without a topic it would gather and the sum of its weights in
// them, as of the last time they were counted.
type candidate struct {
	word int32
	n    int
	wt   float64
}

// pickSubjects names a topic for each document (by index in terms; "" when
// none), as subjectTopics describes. The greedy choice takes, again and
// again, the word that gathers the most documents still without a topic
// (then the heaviest, then the first in byte order). Words wait in a heap
// under the counts they had when last counted: a word that lost documents
// since is counted again when it reaches the top, so each round costs the
// words it changed, not every word of the corpus.
func pickSubjects(lx *lexicon, terms []subjectTerms) []string {
	members := make([][]member, len(lx.words))
	for i, st := range terms {
		for _, t := range st.terms[:st.named] {
			if wt := t.weight(); wt >= memberWeight {
				members[t.word] = append(members[t.word], member{int32(i), wt})
			}
		}
	}
	// A word only in bodies names no topic, but a body's word that a title
	// or heading names counts for the topic.
	for i, st := range terms {
		for _, t := range st.terms[st.named:] {
			if wt := t.weight(); wt >= memberWeight && len(members[t.word]) > 0 {
				members[t.word] = append(members[t.word], member{int32(i), wt})
			}
		}
	}
	size := make([]int, len(members))
	for w, ms := range members {
		size[w] = len(ms)
	}
	broad := len(terms) + 1
	if len(terms) >= 4 {
		broad = max(3, len(terms)*3/5+1)
	}
	left := make([]bool, len(terms))
	for i := range left {
		left[i] = true
	}
	h := &candidates{words: lx.words}
	for w, ms := range members {
		if len(ms) >= 2 && len(ms) < broad {
			c := candidate{word: int32(w)}
			c.n, c.wt = count(ms, left)
			h.items = append(h.items, c)
		}
	}
	heap.Init(h)
	out := make([]string, len(terms))
	surface := lx.surfaces()
	stale := make([]bool, len(members))
	for h.Len() > 0 {
		c := heap.Pop(h).(candidate)
		if stale[c.word] {
			stale[c.word] = false
			members[c.word] = keepLeft(members[c.word], left)
			if c.n, c.wt = count(members[c.word], left); c.n >= 2 {
				heap.Push(h, c)
			}
			continue
		}
		for _, m := range members[c.word] {
			if !left[m.doc] {
				continue
			}
			left[m.doc] = false
			out[m.doc] = surface[c.word]
			for _, t := range terms[m.doc].terms {
				stale[t.word] = true
			}
		}
	}
	for i, st := range terms {
		if left[i] {
			if w := strongest(st, size, broad); w >= 0 {
				out[i] = surface[w]
			}
		}
	}
	return out
}

// count returns how many of ms are left without a topic and the sum of
// their weights, added in the order of ms.
func count(ms []member, left []bool) (int, float64) {
	n, wt := 0, 0.0
	for _, m := range ms {
		if left[m.doc] {
			n++
			wt += m.weight
		}
	}
	return n, wt
}

// keepLeft drops from ms, in place and in order, the documents that have a
// topic now.
func keepLeft(ms []member, left []bool) []member {
	out := ms[:0]
	for _, m := range ms {
		if left[m.doc] {
			out = append(out, m)
		}
	}
	return out
}

// strongest is a document's own best subject word among those of its
// title and headings that are not too broad (size: documents per word):
// the heaviest, then the earliest; -1 when none.
func strongest(st subjectTerms, size []int, broad int) int32 {
	best, bestW := int32(-1), 0.0
	for _, t := range st.terms[:st.named] {
		if size[t.word] >= broad {
			continue
		}
		if wt := t.weight(); best < 0 || wt > bestW {
			best, bestW = t.word, wt
		}
	}
	return best
}

// candidates is a max-heap of words: the most documents first, then the
// heaviest, then the first in byte order.
type candidates struct {
	items []candidate
	words []string
}

func (h *candidates) Len() int { return len(h.items) }
func (h *candidates) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.n != b.n {
		return a.n > b.n
	}
	if a.wt != b.wt {
		return a.wt > b.wt
	}
	return h.words[a.word] < h.words[b.word]
}
func (h *candidates) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *candidates) Push(x any)    { h.items = append(h.items, x.(candidate)) }
func (h *candidates) Pop() any {
	n := len(h.items)
	c := h.items[n-1]
	h.items = h.items[:n-1]
	return c
}
