package retrieve

import (
	"cmp"
	"slices"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// Graded signal settings.
const (
	// signalTop is how many of the best excerpts coverage reads.
	signalTop = 3
	// keyMaxShare: in a space of keyMinUnits units or more, a word used in
	// more than this share of them (how, use, work) is never a key word.
	keyMaxShare = 0.1
	keyMinUnits = 100
)

// signal is the graded signal of an answer, read from its excerpts as the
// caller sees them (title, heading and excerpt): the share of the
// question's weight the best signalTop excerpts hold jointly, and the key
// words of the question that no excerpt holds, as asked, rarest first. A
// word counts as held when an excerpt holds it or the short form of a long
// form the question spells out. Terms are the gate's (a comparative the
// space never uses counts as its adjective). sets returns the terms of an
// excerpt's text read from blob rev (termSet, or a cache of it).
func signal(question string, terms []string, st index.TermStats, hits []Hit, acr []acronym, sets func(text, rev string) map[string]bool) (float64, []string) {
	weights := termWeights(terms, st)
	var all, have float64
	held := make([]bool, len(terms))
	for i, h := range hits {
		set := sets(h.Title+"\n"+h.Heading+"\n"+h.Excerpt, h.Revision)
		for j, t := range terms {
			if held[j] || !heldAs(set, t, acr) {
				continue
			}
			held[j] = true
			if i < signalTop {
				have += weights[j]
			}
		}
	}
	for _, w := range weights {
		all += w
	}
	type miss struct {
		word string
		df   uint64
	}
	var ms []miss
	for j, t := range terms {
		if held[j] || st.N >= keyMinUnits && float64(st.DF[t]) > keyMaxShare*float64(st.N) {
			continue
		}
		w := questionWord(question, t)
		if !slices.ContainsFunc(ms, func(m miss) bool { return m.word == w }) {
			ms = append(ms, miss{w, st.DF[t]})
		}
	}
	slices.SortStableFunc(ms, func(a, b miss) int { return cmp.Compare(a.df, b.df) })
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.word)
	}
	if all == 0 {
		return 0, out
	}
	return round3(have / all), out
}

// excerptTerms is termSet(text), kept by the text itself (an excerpt
// depends on the question, a page's sections do not change within a
// blob): agents ask again what they asked, and the same sections come
// back.
func (e *Engine) excerptTerms(text, rev string) map[string]bool {
	return e.cache.cachedTermSet(rev, "excerpt\x00"+text, func() string { return text })
}
