package retrieve

import "github.com/ptwiki/pt/retrieve/internal/index"

// evidence is what the sufficiency decision read, kept for tuning (the
// gate hook) and for the graded signal.
type evidence struct {
	Question string

	// From the coverage (sufficient).
	Best, Union, Top1 float64 // shares of the question's weight: best single page, the best pages jointly, the first page
	Absent            float64 // share of the weight held by terms the space never uses
	Terms             int

	acronyms []acronym // the definitions whose long forms the question spells out (a page's short form holds them)

	channels map[string][]string // each channel's pages in order, and the fused order (tuning only: set when Engine.gate is)

	// Per question term (tuning only: set when Engine.gate is): the term,
	// the word it comes from, its document frequency, and which of the
	// best pages hold it (bit i: the i-th best page); N units and Pages
	// whole pages in the space.
	TermList, Words []string
	DFs             []uint64
	HeldBy          []uint32
	N, Pages        uint64
}

// record keeps the per-term evidence for the gate hook.
func (ev *evidence) record(terms []string, st index.TermStats, sets []map[string]bool) {
	ev.TermList, ev.N, ev.Pages = terms, st.N, st.Pages
	ev.Words, ev.DFs, ev.HeldBy = nil, nil, make([]uint32, len(terms))
	for j, t := range terms {
		ev.DFs = append(ev.DFs, st.DF[t])
		ev.Words = append(ev.Words, questionWord(ev.Question, t))
		for i, set := range sets {
			if heldAs(set, t, ev.acronyms) {
				ev.HeldBy[j] |= 1 << i
			}
		}
	}
}
