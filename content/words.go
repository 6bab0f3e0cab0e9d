package content

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopwords say nothing about what a text is about.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be
		because been before being below between both but by can could did do does doing down during each
		few for from further had has have having he her here hers him his how i if in into is it its itself
		just let me more most my no nor not now of off on once only or other our ours out over own same she
		should so some such than that the their theirs them then there these they this those through to too
		under until up very was we were what when where which while who whom why will with would you your
		yours use used using via may might must shall one two get got make made see`) {
		m[w] = true
	}
	return m
}()

// Words splits s into lower-cased words (runs of letters and digits),
// dropping one-letter words and stopwords, and stems them (Stem): the
// words that say what a text is about, for the summarizer, topic matching
// and near-duplicate sketches. The full-text index has its own analyzer.
func Words(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if !wordRune(r) {
			i += n
			continue
		}
		j := i + n
		lower := r < utf8.RuneSelf && !('A' <= r && r <= 'Z')
		for j < len(s) {
			r, n = rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[j:])
			}
			if !wordRune(r) {
				break
			}
			if r >= utf8.RuneSelf || 'A' <= r && r <= 'Z' {
				lower = false
			}
			j += n
		}
		w := s[i:j]
		if !lower {
			w = lowerWord(w)
		}
		if len(w) > 1 && !stopwords[w] {
			out = append(out, Stem(w))
		}
		i = j
	}
	return out
}

// lowerWord is strings.ToLower for one word, sparing the allocation for
// short ASCII stopwords ("The", "This"), the commonest capitalised words.
func lowerWord(w string) string {
	var buf [8]byte
	if len(w) > len(buf) {
		return strings.ToLower(w)
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return strings.ToLower(w)
		}
		buf[i] = asciiLower(w[i])
	}
	if stopwords[string(buf[:len(w)])] {
		return "" // dropped by the caller, like every word under two letters
	}
	return string(buf[:len(w)])
}

// wordRune reports whether r belongs to a word: a letter or a digit, in
// any case (lower-casing never turns one into the other).
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Stem folds the commonest English inflections of a lower-case word so
// that "batches" counts for a title that says "batch"; it does not need to
// produce real words.
func Stem(w string) string {
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed"):
		return w[:n-2]
	}
	return w
}

// Stopword reports whether a lower-case word is one Words drops.
func Stopword(w string) bool { return stopwords[w] }

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
