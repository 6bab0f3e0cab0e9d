package retrieve

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// EstimateTokens estimates how many tokens a model needs for s: one per four
// characters (runes), rounded up. It is the usual rule of thumb for English
// prose with BPE tokenizers; code and non-Latin scripts cost more per
// character, so budgets are targets, not guarantees.
func EstimateTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// Excerpt bounds, in tokens: the best result may bring more of its section
// than the others, so that the one most likely to answer is read whole.
const (
	firstExcerptTokens = 700
	otherExcerptTokens = 350
	minExcerptTokens   = 40
)

// candidate is a group chosen for the answer, with the section that
// represents it and the page as read at head.
type candidate struct {
	g      *group
	sec    index.Hit
	more   []index.Hit // other matching sections of the group
	page   *wiki.PageAt
	title  string
	review bool
	fused  float64
}

// pick walks the fused groups best first and keeps the first K whose page is
// active at req.Now, each represented by its best section. The page is read
// from git, so that a page that expired since it was indexed is dropped and
// the revision cited is the one at head.
func pick(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev, groups []*group, req Request, review map[string]bool) ([]candidate, error) {
	var out []candidate
	for i, g := range groups {
		if len(out) == req.K || i >= 4*req.K {
			break
		}
		if len(g.sections) == 0 {
			hits, err := ix.Search(ctx, index.Query{Text: req.Question, Types: []string{typeSection},
				Paths: []string{g.key, "sources/" + g.key, "summaries/" + g.key}, Limit: 3, ExcludeStatus: inactive})
			if err != nil {
				return nil, err
			}
			for _, h := range hits {
				g.addSection(h)
			}
			if len(g.sections) == 0 {
				continue
			}
		}
		sec := representative(g)
		pa, err := readAt(ctx, s, head, sec)
		if err != nil {
			continue // unreadable now (a broken page): it cannot be cited
		}
		if !pa.Page.Meta.Active(req.Now) {
			continue
		}
		c := candidate{g: g, sec: sec, page: pa, title: sec.Title, fused: g.fused,
			review: review[sec.Path] || review[g.key] || review["sources/"+g.key] || review["summaries/"+g.key]}
		// Other matching sections of the group (of this page, or of its
		// source or summary) are evidence for sufficiency.
		for _, h := range g.sections {
			if len(c.more) == 3 {
				break
			}
			if h.ID != sec.ID {
				c.more = append(c.more, h)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// representative is the section that stands for a group: its best, except
// that a source's own text is preferred to its summary's restatement, which
// drops the details (flags, numbers, names) a question usually asks for.
func representative(g *group) index.Hit {
	for _, h := range g.sections {
		if h.PageKind != content.KindSummary {
			return h
		}
	}
	return g.sections[0]
}

// readAt reads the page of an index hit. The index reflects head, so the
// blob it recorded is the page at head, read without walking trees; should
// the blob be missing, the path is read at head instead.
func readAt(ctx context.Context, s *wiki.Space, head wiki.Rev, h index.Hit) (*wiki.PageAt, error) {
	if h.Revision != "" {
		if pa, err := parsedBlob(ctx, s, h.Revision, h.Path); err == nil || !errors.Is(err, errReadBlob) {
			return pa, err
		}
	}
	return s.ReadPage(ctx, head, h.Path)
}

// pack turns the candidates into cited excerpts within the budget: each
// excerpt is its section trimmed to the paragraphs that hold the question's
// words, headed by the section's heading path.
func pack(cs []candidate, terms []string, req Request) ([]Hit, int) {
	hits := []Hit{}
	total := 0
	for i, c := range cs {
		limit := otherExcerptTokens
		if i == 0 {
			limit = firstExcerptTokens
		}
		limit = min(limit, req.Budget-total)
		if limit < minExcerptTokens {
			break
		}
		ex := excerpt(c.sec.Body, terms, limit)
		if ex == "" {
			continue
		}
		n := EstimateTokens(ex)
		total += n
		kind := c.page.Page.Meta.Kind
		if kind == "" {
			kind = content.KindPage
		}
		hits = append(hits, Hit{Path: c.sec.Path, Title: c.title, Revision: c.page.Revision, Score: round3(c.fused * 100),
			Excerpt: ex, NeedsReview: c.review, Heading: c.sec.Heading, Anchor: c.sec.Anchor, Kind: kind, Tokens: n})
	}
	return hits, total
}

// excerpt trims a section's Markdown to at most limit tokens: the heading
// line, then the paragraphs that hold the most distinct question terms, in
// their original order, with "…" where text was left out.
func excerpt(text string, terms []string, limit int) string {
	text = strings.TrimSpace(text)
	if EstimateTokens(text) <= limit {
		return text
	}
	paras := splitParagraphs(text)
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	type scored struct {
		i     int
		score int
	}
	var order []scored
	for i, p := range paras {
		n := 0
		for t := range termSet(p) {
			if want[t] {
				n++
			}
		}
		if i == 0 && strings.HasPrefix(p, "#") {
			n += 1000 // the heading always comes first
		}
		order = append(order, scored{i, n})
	}
	// Best paragraphs first; on ties, earlier ones (a section's opening
	// usually states its point).
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && order[j].score > order[j-1].score; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	keep := make([]bool, len(paras))
	used := 0
	for _, o := range order {
		if o.score == 0 && used > 0 {
			break
		}
		n := EstimateTokens(paras[o.i]) + 1
		if used+n > limit {
			if used == 0 {
				return clipTokens(paras[o.i], limit)
			}
			continue
		}
		keep[o.i] = true
		used += n
	}
	var b strings.Builder
	gap := false
	for i, p := range paras {
		if !keep[i] {
			gap = true
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
			if gap {
				b.WriteString("…\n\n")
			}
		}
		gap = false
		b.WriteString(p)
	}
	return b.String()
}

// splitParagraphs splits Markdown at blank lines, keeping a heading line as
// a paragraph of its own.
func splitParagraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.HasPrefix(p, "#") {
			if h, rest, ok := strings.Cut(p, "\n"); ok {
				out = append(out, h)
				p = strings.TrimSpace(rest)
			}
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// clipTokens cuts s to about limit tokens at a word boundary.
func clipTokens(s string, limit int) string {
	max := limit * 4
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	rs := []rune(s)[:max]
	cut := string(rs)
	if i := strings.LastIndexAny(cut, " \n"); i > max/2 {
		cut = cut[:i]
	}
	return cut + " …"
}

// termSet returns the distinct index terms of a text of any length.
// index.Terms caps a question's terms, so long text is analysed in runs of
// words short enough never to reach the cap.
func termSet(text string) map[string]bool {
	out := map[string]bool{}
	words := strings.Fields(text)
	const run = index.MaxTerms - 4
	for i := 0; i < len(words); i += run {
		for _, t := range index.Terms(strings.Join(words[i:min(i+run, len(words))], " ")) {
			out[t] = true
		}
	}
	return out
}
