package retrieve

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// sufficient decides whether the space covers the question's subject. It
// refuses only on strong evidence that the subject is absent, since a
// refused answer the space holds is the worst outcome for an agent about
// to act; how much of the question the excerpts hold is the graded signal
// (signal.go), for the agent to read. It refuses when
//
//   - the question names something (a CamelCase or dotted identifier, an
//     acronym, a capitalised word inside a sentence: "Bazel",
//     "context.AfterFunc", "SAML") that the space never mentions;
//   - a word of the question is one the space never uses and the best page
//     holds less than Ranking.AbsentTop1 (0.2) of the question's weight; or
//   - coverage is below Ranking.CoverFloor (0.3).
//
// The last two need a space of keyMinUnits index units or more (a dozen
// pages or so): in a handful of pages most words of any question are
// absent, and coverage says more about the wording than the subject.
//
// Each content term of the question weighs 1 + its idf in the space (a
// term the space never uses weighing as one it uses once). Coverage is the
// mean of the best single page's share of that weight and the
// Ranking.CoverTop (3) best pages' joint share, over each page's whole text and its source's or
// summary's matching sections.
//
// A word the space never uses is not enough by itself: a newcomer's
// paraphrase often has one ("permanently", "upkeep", "cosmetic"), and the
// pages answer it all the same. A name is: a question about Bazel in a
// space that never says Bazel is not about this space. Rarity and shape
// are read from the space alone, so the gate works from a space's first
// pages.
func (e *Engine) sufficient(terms []string, st index.TermStats, cs []candidate, ev *evidence) (bool, float64, string) {
	rk := &e.ranking
	if len(cs) == 0 {
		return false, 0, "nothing in the space matches the question"
	}
	weights := termWeights(terms, st)
	var all float64
	for _, w := range weights {
		all += w
	}
	if all == 0 {
		return false, 0, "the question has no searchable words"
	}
	sets := e.coverSets(cs)
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
	var have, absent float64
	for j, t := range terms {
		if union[t] {
			have += weights[j]
		}
		if st.DF[t] == 0 {
			absent += weights[j]
		}
	}
	// A page that holds most of the question is the evidence that counts;
	// the union of the best pages lets a question answered across two pages
	// (multi-hop) count too, at a discount, without letting words scattered
	// over unrelated pages add up to an answer.
	cov := (best + have) / 2 / all
	ev.Best, ev.Union, ev.Top1, ev.Absent, ev.Terms = best/all, have/all, top1/all, absent/all, len(terms)
	if e.gate != nil {
		ev.record(terms, st, sets)
		e.gate(*ev)
	}
	if w := absentName(ev.Question, terms, st); rk.Names && w != "" {
		return false, cov, fmt.Sprintf("the space never mentions %q", w)
	}
	if st.N < keyMinUnits {
		// In a handful of pages every word is rare and most are absent:
		// only a name the space never mentions says the subject is.
		return true, cov, ""
	}
	if ev.Absent > 0 && ev.Top1 < rk.AbsentTop1 {
		return false, cov, fmt.Sprintf("the space never uses %q, and the best match holds little of the question", questionWord(ev.Question, heaviestAbsent(terms, st)))
	}
	if cov < rk.CoverFloor {
		return false, cov, "the best matches hold little of the question"
	}
	return true, cov, ""
}

// termWeights weighs each term by 1 + its idf in the space. A word the
// space never uses weighs as one it uses once: in a small space a filler
// word is as absent as the subject. The added 1 keeps common words from
// counting for nothing, which in a space of a few pages would leave every
// word's weight to chance.
func termWeights(terms []string, st index.TermStats) []float64 {
	w := make([]float64, len(terms))
	for i, t := range terms {
		w[i] = 1 + idf(max(st.DF[t], 1), st.N)
	}
	return w
}

// coverSets are the words of the best Ranking.CoverTop pages: each page's text and
// the matching sections of its source or summary, named exactly by blob and
// section ids, so that a set is computed once per server.
func (e *Engine) coverSets(cs []candidate) []map[string]bool {
	sets := make([]map[string]bool, 0, e.ranking.CoverTop)
	for _, c := range cs[:min(len(cs), e.ranking.CoverTop)] {
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
	return sets
}

// heaviestAbsent is the first of the terms the space never uses (they all
// weigh the same); "" when there is none.
func heaviestAbsent(terms []string, st index.TermStats) string {
	for _, t := range terms {
		if st.DF[t] == 0 {
			return t
		}
	}
	return ""
}

// absentName is the first word of the question shaped like a name (see
// nameWords) whose terms the space never uses, as the asker wrote it; ""
// when there is none.
func absentName(question string, terms []string, st index.TermStats) string {
	for _, w := range nameWords(question) {
		for _, t := range index.Terms(w) {
			if slices.Contains(terms, t) && st.DF[t] == 0 {
				return w
			}
		}
	}
	return ""
}

// nameWords are the words of a question shaped like the name of a thing:
// an identifier (a dot, an underscore or a slash between letters:
// context.AfterFunc, client_golang), a command-line flag (-vettool),
// letters mixed with digits (PSR-12), a capital after the first letter
// (GoReleaser, SAML, PRs), or a capitalised word that does not start a
// sentence (Bazel, Okta; not a day or a month). In a question written in title case a leading
// capital says nothing, and in one written in capitals neither does an
// inner one. Surrounding punctuation and a possessive 's are dropped.
func nameWords(question string) []string {
	fields := strings.Fields(question)
	caps, shout := 0, 0
	for _, f := range fields {
		if r := firstLetter(f); unicode.IsUpper(r) {
			caps++
		}
		if strings.ToUpper(f) == f && strings.ToLower(f) != f {
			shout++
		}
	}
	titled, shouted := caps*2 > len(fields), shout*2 > len(fields)
	var out []string
	start := true // the next word starts a sentence
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
		})
		if i := strings.IndexAny(w, "'’"); i >= 0 {
			w = w[:i] // a possessive or a contraction: Go's, I'm
		}
		w = strings.TrimRight(w, "-_")
		if w != "" && nameShaped(w, start, titled, shouted) {
			out = append(out, strings.TrimLeft(w, "-"))
		}
		start = strings.ContainsAny(f[len(f)-1:], ".?!:")
	}
	return out
}

// nameShaped reports whether w is shaped like a name (see nameWords); start
// says it starts a sentence, titled and shouted that most words of the
// question start with a capital or are all capitals.
func nameShaped(w string, start, titled, shouted bool) bool {
	rs := []rune(w)
	letters, digits, joined, inner := false, false, false, false
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			letters = true
			inner = inner || i > 0 && unicode.IsUpper(r)
		case unicode.IsDigit(r):
			digits = true
		case (r == '.' || r == '_' || r == '/') && i > 0 && i < len(rs)-1:
			joined = true
		}
	}
	switch {
	case !letters:
		return false
	case joined || rs[0] == '-' || digits:
		return true
	case inner:
		return !shouted
	}
	return unicode.IsUpper(rs[0]) && !start && !titled && len(rs) > 1 && !calendarWord(w)
}

// calendarWord reports whether w is a day or a month (Sundays, March):
// English capitalises them, and they name no subject.
func calendarWord(w string) bool {
	w = strings.TrimSuffix(strings.ToLower(w), "s")
	for _, c := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		if w == c {
			return true
		}
	}
	return false
}

func firstLetter(s string) rune {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return r
		}
	}
	return 0
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

func idf(df, n uint64) float64 {
	if df > n {
		df = n
	}
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
