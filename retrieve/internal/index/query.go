package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/search"
)

// Query is a free-text question with filters. The zero value of every filter
// means "no restriction".
type Query struct {
	Text          string             // free text of any length and script; only its first MaxTerms distinct terms count
	Types         []string           // restrict to these Doc.Type values
	Paths         []string           // restrict to these paths
	ExcludeStatus []string           // drop Docs with these statuses, e.g. stale, retracted, expired
	Limit         int                // maximum hits; 0 means DefaultLimit, capped at MaxLimit
	Fields        map[string]float64 // per-field boosts by name; nil means DefaultFields(); a field left out or boosted <= 0 is not searched
	OmitBody      bool               // leave Hit.Body empty, for callers that only rank

	exact bool // score every document matching any term (see termsQuery); tests only
}

// Hit is a Doc that matched, with its BM25 score (summed over fields and
// terms, boosts applied). Scores compare only within one Search.
type Hit struct {
	Doc
	Score float64
}

const (
	// MaxTerms caps the distinct terms taken from a question, so that a pasted
	// document costs no more than a long question.
	MaxTerms = 64
	// DefaultLimit is the number of hits when Query.Limit is 0.
	DefaultLimit = 10
	// MaxLimit caps Query.Limit.
	MaxLimit = 10000
	// maxQuestionBytes bounds the text analysed; MaxTerms distinct terms are
	// found long before it in any real question.
	maxQuestionBytes = 64 << 10
)

// defaultFields are the boosts used when Query.Fields is nil: a word in a
// title says more about a unit than the same word in its body.
var defaultFields = map[string]float64{
	fieldTitle:   3,
	fieldHeading: 2,
	fieldSummary: 2,
	fieldTopics:  1.5,
	fieldBody:    1,
}

// DefaultFields returns the boosts used when Query.Fields is nil (title 3,
// heading 2, summary 2, topics 1.5, body 1), and so the names Query.Fields
// accepts; a copy, for callers that tune one boost and keep the rest.
func DefaultFields() map[string]float64 {
	return maps.Clone(defaultFields)
}

// Search returns the Docs that best match q, best first; hits of equal score
// are ordered by ID. A question with no usable terms (empty, only stop words
// or punctuation) returns no hits and no error.
//
// Scores are BM25 summed over matching (term, field) pairs. On a large index,
// words that a large share of the documents hold only add to the score of
// documents found by the question's more selective words, and words in most
// documents are ignored (see termsQuery); on the benchmark corpus that keeps
// nine in ten of the exact top ten at a sixth of the cost.
func (ix *Index) Search(ctx context.Context, q Query) (_ []Hit, err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	gen, key := ix.hits.generation(), q.key()
	if hits, ok := ix.hits.get(gen, key); ok {
		return hits, nil
	}
	bq, err := buildQuery(q, &ix.snaps, ix.exactPostings)
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	if bq == nil {
		return nil, nil
	}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		limit = MaxLimit
	}

	r, release, err := ix.reader()
	if err != nil {
		return nil, readErr("search index", err)
	}
	defer release()
	// Ties are broken below rather than by sorting on _id in bluge, which
	// would load the id of every matching document.
	req := newTopScores(limit, bq)
	it, err := r.Search(ctx, req)
	if err != nil {
		return nil, readErr("search index", err)
	}
	hits, err := collectHits(it, !q.OmitBody)
	if err != nil {
		return nil, readErr("search index", err)
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID))
	})
	ix.hits.put(gen, key, hits)
	return hits, nil
}

// buildQuery returns the bluge query for q, or nil when q has no usable terms.
// The text part is a disjunction of one term clause per (term, field) with the
// field's boost, so that partial matches score and BM25 sums the evidence
// (termsQuery). The filters are boolean clauses boosted to zero so they select
// without scoring.
func buildQuery(q Query, cache *snapCache, below uint64) (bluge.Query, error) {
	fields := q.Fields
	if fields == nil {
		fields = defaultFields
	}
	names := make([]string, 0, len(fields))
	for name, boost := range fields {
		if _, ok := defaultFields[name]; !ok {
			return nil, fmt.Errorf("unknown query field %q", name)
		}
		if boost > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names) // a stable clause order keeps scores reproducible
	terms := Terms(q.Text)
	if len(terms) == 0 || len(names) == 0 {
		return nil, nil
	}

	// The types asked for pick the partitions searched; only a type without
	// a partition of its own (its text is in the shared fields) needs the
	// type filter.
	parts, filterTypes := allPartitions, false
	if len(q.Types) > 0 {
		parts = nil
		for _, t := range q.Types {
			p := partitionOf(t)
			filterTypes = filterTypes || p == ""
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	text := &termsQuery{exact: q.exact, parts: parts, cache: cache, below: below}
	for _, t := range terms {
		for _, name := range names {
			text.clauses = append(text.clauses, clause{term: t, field: name, boost: fields[name]})
		}
	}
	if !filterTypes && len(q.Paths) == 0 && len(q.ExcludeStatus) == 0 {
		return text, nil
	}
	bq := bluge.NewBooleanQuery().AddMust(text)
	if filterTypes {
		bq.AddMust(anyOf(fieldType, q.Types))
	}
	if len(q.Paths) > 0 {
		bq.AddMust(&pathsFilter{paths: q.Paths, cache: cache})
	}
	for _, s := range q.ExcludeStatus {
		bq.AddMustNot(termQuery{term: s, field: fieldStatus})
	}
	return bq, nil
}

// anyOf matches documents whose keyword field is one of values, adding nothing
// to the score.
func anyOf(field string, values []string) bluge.Query {
	if len(values) == 0 {
		return nil
	}
	q := bluge.NewBooleanQuery().SetMinShould(1).SetBoost(0)
	for _, v := range values {
		q.AddShould(termQuery{term: v, field: field})
	}
	return q
}

// Terms returns the distinct index terms of a question, in order of first
// appearance and at most MaxTerms of them: the same English analysis as the
// indexed text (stop words dropped, words stemmed), after control characters
// and invalid UTF-8 are turned into spaces. Exported so that callers can tell
// an unusable question from one that found nothing.
func Terms(text string) []string {
	if len(text) > maxQuestionBytes {
		text = text[:maxQuestionBytes] // a split rune becomes invalid UTF-8, cleaned below
	}
	text = strings.ToValidUTF8(text, " ")
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	var terms []string
	seen := map[string]bool{}
	for _, tok := range analyzer.Analyze([]byte(text)) {
		t := string(tok.Term)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		terms = append(terms, t)
		if len(terms) == MaxTerms {
			break
		}
	}
	return terms
}

// collectHits decodes every match of it, in the order bluge returns them.
func collectHits(it search.DocumentMatchIterator, withBody bool) ([]Hit, error) {
	var hits []Hit
	for {
		m, err := it.Next()
		if err != nil || m == nil {
			return hits, err
		}
		h := Hit{Score: m.Score}
		if err := m.VisitStoredFields(func(field string, value []byte) bool {
			decodeField(&h.Doc, field, value, withBody)
			return true
		}); err != nil {
			return nil, err
		}
		hits = append(hits, h)
	}
}

// Tokens returns the index terms of text in order, repeats kept (stop words
// dropped): for callers that look at where a question's terms fall.
func Tokens(text string) []string {
	text = strings.ToValidUTF8(text, " ")
	var out []string
	for _, tok := range analyzer.Analyze([]byte(text)) {
		if len(tok.Term) > 0 {
			out = append(out, string(tok.Term))
		}
	}
	return out
}
