package retrieve

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// sufficient decides whether the space answers the question. It weighs each
// content term of the question by its rarity in the space (BM25's idf, a term
// the space never uses weighing most) and asks what share of that weight the
// best results hold, in their title, headings and matching sections. A
// question about something the space lacks keeps its rarest words, the ones
// that name the subject, uncovered, while its common words (how, use, test)
// match anything; a fixed BM25 cutoff cannot tell the two apart, since
// scores are not comparable across questions.
//
// Coverage is the mean of the best single page's share and the three best
// pages' joint share. Two rules refuse: coverage below Ranking.MinCoverage
// (0.4), or a question word that none of the three best pages holds and
// that carries at least Ranking.MissingShare (14%) of the weight, while
// coverage stays below Ranking.MissingCoverage (0.75), and that the space
// itself barely uses (rare). The word that names what is asked ("stipend",
// "Bazel") is the one a near miss lacks, while a paraphrase misses only some
// of its many common words. The settings were
// chosen on half of the development, own and later question sets of both
// corpora as `pt import` brings them in (most answerable questions kept
// plus unanswerable ones refused) and checked on the other half and on
// the final sets; docs/retrieval.md has the figures. The margin is thin:
// unanswerable questions in the space's own domain can cover every word.
// evidence.standsOut may still accept an answer either rule refuses.
//
// Rarity tells the word that names a subject from a filler word only in a
// space of some size: in a handful of pages every word is rare, and "work"
// would weigh as much as "stipend". Below Ranking.MissingMinPages pages
// (whole pages in the index: a source and its summary count as two) the
// missing-word rule is off and coverage alone decides, at the higher
// threshold Ranking.SmallMinCoverage (0.56) chosen before that rule existed.
func (e *Engine) sufficient(terms []string, st index.TermStats, cs []candidate, ev *evidence) (bool, float64, string) {
	rk := &e.ranking
	if len(cs) == 0 {
		return false, 0, "nothing in the space matches the question"
	}
	weights := make([]float64, len(terms))
	var all float64
	for i, t := range terms {
		// A word the space never uses weighs as one it uses once: in a small
		// space a filler word ("work") is as absent as the subject. The
		// added 1 keeps common words from counting for nothing, which in a
		// space of a few pages would leave every word's weight to chance.
		weights[i] = 1 + idf(max(st.DF[t], 1), st.N)
		all += weights[i]
	}
	sets := make([]map[string]bool, 0, rk.CoverTop)
	for i, c := range cs {
		if i == rk.CoverTop {
			break
		}
		// The page's words, and those of the matching sections of its
		// source or summary, named exactly by blob and section ids, so
		// that the set is computed once per server.
		key := "cov\x00" + c.page.Revision + "\x00" + c.title
		for _, h := range c.more {
			if h.Path != c.sec.Path {
				key += "\x00" + h.Revision + "\x00" + h.ID
			}
		}
		sets = append(sets, e.cache.cachedTermSet(c.page.Revision, key, func() string {
			text := c.title + "\n" + clip(string(c.page.Page.Body), maxSectionBody)
			for _, h := range c.more {
				if h.Path != c.sec.Path {
					text += "\n" + h.Body
				}
			}
			return text
		}))
	}
	union := map[string]bool{}
	var best, top1 float64
	for i, set := range sets {
		var have float64
		for j, t := range terms {
			if heldAs(set, t, ev.acronyms) {
				have += weights[j]
				union[t] = true
			}
		}
		best = max(best, have)
		if i == 0 {
			top1 = have
		}
	}
	var have, absent, missing float64
	missingTerm := ""
	for j, t := range terms {
		if union[t] {
			have += weights[j]
		} else if weights[j] > missing {
			missing, missingTerm = weights[j], t
		}
		if st.DF[t] == 0 {
			absent += weights[j]
		}
	}
	if all > 0 {
		ev.Best, ev.Union, ev.Top1 = best/all, have/all, top1/all
		ev.Absent, ev.MissingMax = absent/all, missing/all
		ev.MissingTerm, ev.MissingDF, ev.N = missingTerm, st.DF[missingTerm], st.N
		if e.gate != nil {
			ev.DFs = ev.DFs[:0]
			for _, t := range terms {
				ev.DFs = append(ev.DFs, st.DF[t])
			}
		}
	}
	ev.Terms = len(terms)
	if e.gate != nil {
		e.gate(*ev)
	}
	// A page that holds most of the question is the evidence that counts;
	// the union of the best pages lets a question answered across two pages
	// (multi-hop) count too, at a discount, without letting words scattered
	// over unrelated pages add up to an answer.
	have = rk.CoverMaxWeight*best + (1-rk.CoverMaxWeight)*have
	if all == 0 {
		return false, 0, "the question has no searchable words"
	}
	cov := have / all
	missingRule := rk.MissingShare > 0 && st.Pages >= rk.MissingMinPages
	minCov := rk.MinCoverage
	if !missingRule {
		minCov = rk.SmallMinCoverage
	}
	switch {
	case ev.standsOut(rk, cov):
	case cov < minCov:
		return false, cov, "the best matches miss the question's distinctive words"
	case missingRule && ev.MissingMax >= rk.MissingShare && cov < rk.MissingCoverage && rare(rk, st, missingTerm):
		return false, cov, fmt.Sprintf("none of the best matches mentions %q", questionWord(ev.Question, missingTerm))
	}
	return true, cov, ""
}

// questionWord is the word of the question that the index term t comes
// from, as the asker wrote it, for telling them what the space lacks; t
// itself when none does (stemming makes t a stranger: "foundat").
func questionWord(question, t string) string {
	for _, w := range strings.Fields(question) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if slices.Contains(index.Terms(w), t) {
			return w
		}
	}
	return t
}

// rare reports whether the space uses t so seldom (in at most
// Ranking.MissingMaxDF of its units, or two) that its absence from the best
// pages means the space lacks what t names. A word the space uses in dozens
// of places ("lose", "paid", "bare") that the best pages happen not to hold
// says more about how the question was worded than about what the space
// knows.
func rare(rk *Ranking, st index.TermStats, t string) bool {
	return float64(st.DF[t]) <= max(2, rk.MissingMaxDF*float64(st.N))
}

func idf(df, n uint64) float64 {
	if df > n {
		df = n
	}
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
