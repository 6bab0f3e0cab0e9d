package lint

import (
	"sort"
	"strings"
	"unicode"
)

// wordCount is a content word and how often a page uses it.
type wordCount struct {
	W string
	N int
}

// bagOf counts the content words of a page's prose (folded, stop words
// and numbers left out).
func bagOf(sents []sentence) []wordCount {
	n := map[string]int{}
	for _, s := range sents {
		for _, w := range words(s.Text) {
			w = singular(w)
			if len(w) < 2 || stopWords[w] || isNumber(w) {
				continue
			}
			n[w]++
		}
	}
	out := make([]wordCount, 0, len(n))
	for w, c := range n {
		out = append(out, wordCount{w, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].W < out[j].W })
	return out
}

// phrasesOf returns the distinct runs of two and three content words of a
// page's prose, written in lower case and not broken by punctuation, the
// last word singular: the candidates for a concept the team named itself
// ("soak period"). Capitalized runs are proper names (people, places,
// products, titles) and not the space's concepts.
func phrasesOf(sents []sentence) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range sents {
		for _, chunk := range strings.FieldsFunc(withoutCode(s.Text), isPhraseBreak) {
			ws := strings.Fields(chunk)
			for i := range ws {
				for n := 2; n <= 3 && i+n <= len(ws); n++ {
					k, ok := phraseKey(ws[i : i+n])
					if !ok {
						break
					}
					if !seen[k] {
						seen[k] = true
						out = append(out, k)
					}
				}
			}
		}
	}
	return out
}

// withoutCode puts a break in place of each written token with inner
// punctuation (go.mod, k8s.io/api, GO111MODULE=on): its pieces are not
// words, and "go.mod file" must not yield the phrase "mod file".
func withoutCode(text string) string {
	ws := strings.Fields(text)
	for i, w := range ws {
		if strings.ContainsAny(strings.Trim(w, ".,;:!?()[]\"'`*_"), "./:_=@") {
			ws[i] = "|"
		}
	}
	return strings.Join(ws, " ")
}

// isPhraseBreak reports whether a rune ends a run of words: punctuation
// other than a word's inner hyphen or apostrophe.
func isPhraseBreak(r rune) bool {
	switch r {
	case ' ', '-', '\'':
		return false
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// phraseKey folds a run of written words into a phrase, or reports that
// the run is not one: a word capitalized, too short, a stop word or a
// number.
func phraseKey(run []string) (string, bool) {
	g := make([]string, len(run))
	for i, w := range run {
		w = strings.Trim(w, "-'")
		if len(w) < 3 || strings.ToLower(w) != w || stopWords[w] || isNumber(w) {
			return "", false
		}
		g[i] = w
	}
	g[len(g)-1] = singular(g[len(g)-1])
	return strings.Join(g, " "), true
}
