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

// plainBM25 is the first baseline: plain BM25 over whole pages as their
// files hold them, in an index of its own built for the evaluation: a
// page's title (its frontmatter's, or its file name's) and its body. No hub,
// spokes, sections or fusion, and none of what pt adds to its own index (the
// folders searched as title words, import's summaries standing in for their
// sources), so that it is the search a team gets from the files alone. Its
// context is the top K pages whole, within the budget.
type plainBM25 struct{ ix *index.Index }

func newPlainBM25(ctx context.Context, s *wiki.Space, head wiki.Rev) (*plainBM25, error) {
	var docs []index.Doc
	err := filePages(ctx, s, head, func(p, blob, title, body string) {
		docs = append(docs, index.Doc{ID: p, Path: p, Type: typePage, Title: title,
			Body: clip(body, 4*maxSectionBody), Revision: blob, Status: content.StatusActive})
	})
	if err != nil {
		return nil, err
	}
	ix, err := index.OpenMemory()
	if err != nil {
		return nil, err
	}
	if err := ix.Apply(ctx, string(head), docs, nil); err != nil {
		ix.Close()
		return nil, err
	}
	return &plainBM25{ix}, nil
}

func (b *plainBM25) Close() error { return b.ix.Close() }

func (b *plainBM25) search(ctx context.Context, question string, req Request) ([]string, int, error) {
	return bm25Pages(ctx, b.ix, question, req)
}

// bm25Pages is BM25 over the page units of ix (title and body, equal
// weight), the top K pages whole within the budget. Over pt's own index it
// is the third reference: the same ranking function with what pt adds to
// the pages (folder words, summaries), but no hub, spokes, sections or
// fusion.
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
// (lower case, three letters or more, not stop words) occur in each page,
// as its file holds it.
type keywordBaseline struct {
	paths []string
	words []map[string]int
	size  []int
}

func newKeywordBaseline(ctx context.Context, s *wiki.Space, head wiki.Rev) (*keywordBaseline, error) {
	kb := &keywordBaseline{}
	err := filePages(ctx, s, head, func(p, _, title, body string) {
		text := title + "\n" + body
		counts := map[string]int{}
		for _, w := range plainWords(text) {
			counts[w]++
		}
		kb.paths = append(kb.paths, p)
		kb.words = append(kb.words, counts)
		kb.size = append(kb.size, EstimateTokens(text))
	})
	if err != nil {
		return nil, err
	}
	return kb, nil
}

// filePages calls f with every page of the space at head as its file holds
// it, the baselines' view: its title (the frontmatter's, or the file
// name's) and its body. What pt writes for its own navigation and search
// (the hub, the log, spokes, import summaries) is left out.
func filePages(ctx context.Context, s *wiki.Space, head wiki.Rev, f func(p, blob, title, body string)) error {
	es, err := s.Pages(ctx, head)
	if err != nil {
		return err
	}
	for _, e := range es {
		if !indexed(e.Path) || strings.HasPrefix(e.Path, wiki.TopicsDir) {
			continue
		}
		data, err := s.ReadBlob(ctx, e.Blob)
		if err != nil {
			return err
		}
		title, body := "", string(data)
		if pg, err := content.Parse(e.Path, data); err == nil {
			switch pg.Meta.Kind {
			case content.KindSummary, content.KindTopic, content.KindHub, content.KindLog:
				continue
			}
			title, body = strings.TrimSpace(pg.Meta.Title), string(pg.Body)
		}
		if title == "" {
			title = content.TitleFromPath(e.Path)
		}
		f(e.Path, e.Blob, title, body)
	}
	return nil
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
