package retrieve

// Ranking holds the ranking and sufficiency parameters: the ranking's
// chosen on the development and own questions of both corpora, the gate's
// on the tuning halves of the unseen question sets (docs/retrieval.md has
// the figures). An Engine takes one in Options; DefaultRanking returns
// the tuned values, and experiments (the eval harness, tests) pass others.
//
// The pages channel (plain BM25 over whole pages, a page scoring as its
// source or its summary, whichever is better) is the backbone: a page's
// fused score is its pages score over the best, times (WPages plus the sum
// of weight*score/best of the other channels). The other channels so
// re-rank the pages the page search found, in proportion to their
// agreement with it, and cannot lift a page it ranks low: adding them (the
// previous fusion) let a section channel that favoured short, off-subject
// sections push the page plain BM25 ranked first out of the top five.
// Reciprocal rank fusion and CombMNZ lost to it. Plain title+body BM25 beat
// the index's boosted fields (title 3, heading 2, summary 2) on both
// corpora. Navigation has a small weight: the topics an import derives are
// broad, and a larger weight let a whole topic's pages crowd out the page
// that answers.
type Ranking struct {
	SectionLimit, PageLimit int // hits read from the sections and pages channels

	WSections, WPages, WNav float64 // channel weights (see above)
	WFeedback               float64 // weight of the pages channel searched with the question expanded by feedback (0: off)
	FeedbackDocs            int     // pages whose best sections feedback reads
	FeedbackTerms           int     // terms feedback adds at most

	// The sufficiency gate (sufficient.go): CoverTop best pages are read;
	// in a space of keyMinUnits units or more, coverage below CoverFloor
	// refuses, and so does a word the space never uses while the best page
	// holds less than AbsentTop1 of the question's weight; with Names, a
	// name the space never mentions refuses in any space.
	CoverTop   int
	CoverFloor float64
	AbsentTop1 float64
	Names      bool

	Dated     float64 // a page of a yearly series scores this much of itself when the question names no year (1: off)
	Proximity float64 // a section's score times 1 + Proximity × how closely it holds the question's terms together (0: off)
	Acronyms  bool    // search a question that spells out a long form the space abbreviates with the short form too
	BaseForms bool    // the gate reads a comparative the space never uses as its adjective (baseForms)
}

// DefaultRanking returns the tuned parameters.
func DefaultRanking() Ranking {
	return Ranking{
		SectionLimit: 100, PageLimit: 60,
		WSections: 1.0, WPages: 2.0, WNav: 0.2,
		WFeedback: 0.5, FeedbackDocs: 5, FeedbackTerms: 4,
		CoverTop: 3, CoverFloor: 0.3, AbsentTop1: 0.2, Names: true,
		Dated: 0.6, Proximity: 3, Acronyms: true, BaseForms: true,
	}
}
