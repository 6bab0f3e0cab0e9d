package retrieve

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// plainFields is the baseline's BM25: title and body, equal weight.
var plainFields = map[string]float64{"title": 1, "body": 1}

// bm25Pages is the first baseline: plain BM25 over whole pages, no hub, no
// spokes, no sections, no fusion. Its context is the top K pages whole,
// within the budget.
func bm25Pages(ctx context.Context, ix *index.Index, question string, req Request) ([]string, int, error) {
	hits, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typePage}, Limit: req.K, Fields: plainFields})
	if err != nil {
		return nil, 0, err
	}
	var paths []string
	tokens := 0
	for _, h := range hits {
		paths = append(paths, h.Path)
		tokens += EstimateTokens(h.Body)
	}
	return paths, min(tokens, req.Budget), nil
}

// keywordBaseline is the second baseline: how often the question's words
// (lower case, three letters or more, not stop words) occur in each page.
type keywordBaseline struct {
	paths []string
	words []map[string]int
	size  []int
}

func newKeywordBaseline(ctx context.Context, s *wiki.Space, head wiki.Rev) (*keywordBaseline, error) {
	es, err := s.Pages(ctx, head)
	if err != nil {
		return nil, err
	}
	kb := &keywordBaseline{}
	for _, e := range es {
		if !indexed(e.Path) || strings.HasPrefix(e.Path, wiki.TopicsDir) {
			continue
		}
		data, err := s.ReadBlob(ctx, e.Blob)
		if err != nil {
			return nil, err
		}
		text := string(data)
		if pg, err := content.Parse(e.Path, data); err == nil {
			text = pg.Meta.Title + "\n" + string(pg.Body)
		}
		counts := map[string]int{}
		for _, w := range plainWords(text) {
			counts[w]++
		}
		kb.paths = append(kb.paths, e.Path)
		kb.words = append(kb.words, counts)
		kb.size = append(kb.size, EstimateTokens(text))
	}
	return kb, nil
}

func (kb *keywordBaseline) search(question string, req Request) ([]string, int) {
	qw := map[string]bool{}
	for _, w := range plainWords(question) {
		qw[w] = true
	}
	type scored struct {
		i, n int
	}
	var hits []scored
	for i, counts := range kb.words {
		n := 0
		for w := range qw {
			n += counts[w]
		}
		if n > 0 {
			hits = append(hits, scored{i, n})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].n != hits[b].n {
			return hits[a].n > hits[b].n
		}
		return kb.paths[hits[a].i] < kb.paths[hits[b].i]
	})
	var paths []string
	tokens := 0
	for i, h := range hits {
		if i == req.K {
			break
		}
		paths = append(paths, kb.paths[h.i])
		tokens += kb.size[h.i]
	}
	return paths, min(tokens, req.Budget)
}

var plainStop = map[string]bool{"the": true, "and": true, "for": true, "how": true, "what": true, "does": true, "can": true,
	"with": true, "that": true, "this": true, "are": true, "from": true, "which": true, "when": true, "why": true, "who": true,
	"should": true, "into": true, "its": true, "not": true, "but": true, "you": true, "our": true, "there": true, "have": true, "has": true}

func plainWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !plainStop[w] {
			out = append(out, w)
		}
	}
	return out
}
