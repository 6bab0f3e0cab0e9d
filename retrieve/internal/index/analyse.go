package index

import (
	"github.com/blugelabs/bluge/analysis"
	"github.com/blugelabs/bluge/analysis/lang/en"
)

// A docAnalyser analyses documents' text fields exactly as analyzer does,
// without doing the same work twice. A page's title, summary and topics are
// fields of the page and again of each of its sections, and are analysed
// once per page; the English stemmer, a fifth of a build, is asked once per
// distinct word. It is not safe for concurrent use: each goroutine that
// builds documents has its own.
type docAnalyser struct {
	a     *analysis.Analyzer
	path  string                          // the page the kept texts are of
	texts map[string]analysis.TokenStream // short field values of path, analysed
}

// maxKeptText bounds the field values kept per page: titles, headings,
// summaries and topics, not bodies.
const maxKeptText = 1 << 10

// maxStems bounds the words whose stems are kept.
const maxStems = 1 << 17

func newDocAnalyser() *docAnalyser {
	return &docAnalyser{
		a:     englishAnalyzer(&memoStemmer{stem: en.StemmerFilter(), stems: map[string][]byte{}}),
		texts: map[string]analysis.TokenStream{},
	}
}

// analyse returns the tokens of text, a field value of the page at path.
// Streams it returns may be shared between documents and must not be
// changed.
func (a *docAnalyser) analyse(path, text string) analysis.TokenStream {
	if path != a.path {
		clear(a.texts)
		a.path = path
	}
	if t, ok := a.texts[text]; ok {
		return t
	}
	t := a.a.Analyze([]byte(text))
	if len(text) <= maxKeptText {
		a.texts[text] = t
	}
	return t
}

// memoStemmer is the English stemmer, remembering the stem of each word.
type memoStemmer struct {
	stem  analysis.TokenFilter
	stems map[string][]byte
}

// Filter stems each token; tokens of one word share the stem's bytes.
func (m *memoStemmer) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		if s, ok := m.stems[string(t.Term)]; ok {
			t.Term = s
			continue
		}
		w := string(t.Term)
		m.stem.Filter(analysis.TokenStream{t})
		if len(m.stems) < maxStems {
			m.stems[w] = t.Term
		}
	}
	return in
}
