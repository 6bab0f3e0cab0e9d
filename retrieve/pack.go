package retrieve

import (
	"context"
	"errors"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
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
	from   string // the superseded page this successor answers for
}

// pick walks the fused groups best first and keeps the first K whose page is
// active at req.Now and carries no credential, each represented by its best
// section. The page is read
// from git, so that a page that expired since it was indexed is dropped and
// the revision cited is the one at head.
func (e *Engine) pick(ctx context.Context, ix *index.Index, head wiki.Rev, groups []*group, req Request, review map[string]bool) ([]candidate, error) {
	var out []candidate
	taken := map[string]bool{}
	ask := questionIntent(req.Question)
	for i, g := range groups {
		if len(out) == req.K || i >= 4*req.K && !req.filtered() {
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
		sec := representative(g, ask)
		pa, err := e.readAt(ctx, head, sec)
		if err != nil {
			continue // unreadable now (a broken page): it cannot be cited
		}
		if !cleared(e.space, req, pa.Page.Meta) {
			continue // above the reader's clearance: never returned nor named
		}
		from := ""
		if succ := successorOf(ctx, e.space, head, pa, req); succ != nil && cleared(e.space, req, succ.Page.Meta) {
			// A superseded page is never an answer: its successor is.
			ns, ok, err := successorSection(ctx, ix, succ, req)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			from, sec, pa = pa.Path, ns, succ
		}
		if taken[pa.Path] || !pa.Page.Meta.Active(req.Now) || !sourceActive(ctx, e.space, head, pa, req) || !req.admits(pa.Page.Meta) {
			continue
		}
		if e.cache.hasSecret(pa.Revision, pa.Raw) {
			continue // a credential a person committed: withheld until fixed (lint's secret_in_page)
		}
		taken[pa.Path] = true
		c := candidate{g: g, sec: sec, page: pa, title: sec.Title, fused: g.fused, from: from,
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

// sourceActive reports whether a summary's source is active too: a source
// and its summary are one page, so a retracted or stale source takes its
// summary's restatement out of the answers with it, before lint marks the
// summary. Pages other than summaries are their own source.
func sourceActive(ctx context.Context, s *wiki.Space, head wiki.Rev, pa *wiki.PageAt, req Request) bool {
	df := pa.Page.Meta.Provenance.DerivedFrom
	if pa.Page.Meta.Kind != content.KindSummary || len(df) == 0 {
		return true
	}
	src, err := s.ReadPage(ctx, head, df[0].Path)
	if err != nil {
		return true // a source gone or unreadable is lint's to report
	}
	// A summary says what its source says: it is as classified as it.
	return src.Page.Meta.Active(req.Now) && cleared(s, req, src.Page.Meta)
}

// cleared reports whether the reader may see a page of meta m.
func cleared(s *wiki.Space, req Request, m content.Meta) bool {
	return req.Clearance == "" || content.Cleared(req.Clearance, m.Classification, s.Config().SpaceClassification())
}

// representative is the section that stands for a group: its best, except
// that a source's own text is preferred to its summary's restatement, which
// drops the details (flags, numbers, names) a question usually asks for,
// and that a section holding the kind of fact the question asks for (the
// decision of a "why did we choose", the date of a "when") comes before the
// discussion around it.
//
// A section that is only its heading, a status line or frontmatter (its
// text is all in its subsections) stands for nothing: the next matching
// section with text does.
func representative(g *group, ask intent) index.Hit {
	for _, fits := range []func(index.Hit) bool{
		func(h index.Hit) bool { return h.PageKind != content.KindSummary && hasText(h.Body) && ask.answers(h) },
		func(h index.Hit) bool { return hasText(h.Body) && ask.answers(h) },
		func(h index.Hit) bool { return h.PageKind != content.KindSummary && hasText(h.Body) },
		func(h index.Hit) bool { return hasText(h.Body) },
		func(h index.Hit) bool { return h.PageKind != content.KindSummary },
	} {
		for _, h := range g.sections {
			if fits(h) {
				return h
			}
		}
	}
	return g.sections[0]
}

// metaLine is a line that labels rather than says: "Status: accepted",
// "Date: 2026-10-02", "Owner: dana" (a key of at most three words, a
// colon, a short value).
var metaLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[*_]*[A-Za-z][\w-]*(?: [\w-]+){0,2}[*_]*:[*_]*\s+\S.{0,60}$`)
})

// hasText reports whether a section holds a line of text: not a heading, a
// status or metadata line, a frontmatter fence or a rule.
func hasText(body string) bool {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.Trim(l, "-*_= ") == "" || metaLine().MatchString(l) {
			continue
		}
		return true
	}
	return false
}

// readAt reads the page of an index hit. The index reflects head, so the
// blob it recorded is the page at head, read without walking trees; should
// the blob be missing, the path is read at head instead.
func (e *Engine) readAt(ctx context.Context, head wiki.Rev, h index.Hit) (*wiki.PageAt, error) {
	s := e.space
	if h.Revision != "" {
		if pa, err := e.cache.parsedBlob(ctx, s, h.Revision, h.Path); err == nil || !errors.Is(err, errReadBlob) {
			return pa, err
		}
	}
	return s.ReadPage(ctx, head, h.Path)
}

// pack turns the candidates into cited excerpts within the budget: each
// excerpt is its section trimmed to the paragraphs that hold the question's
// words, headed by the section's heading path. Excerpts and titles are
// inert (content.Inert): a page's terminal escapes never reach the caller.
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
		ex := excerpt(content.Inert(c.sec.Body), terms, limit)
		if ex == "" {
			continue
		}
		n := EstimateTokens(ex)
		total += n
		score := round3(c.fused * 100)
		if len(hits) > 0 {
			// A near-duplicate kept behind the other pages keeps its own
			// score; the reported one follows the rank, so that a client
			// sorting by score keeps pt's order.
			score = min(score, hits[len(hits)-1].Score)
		}
		kind := c.page.Page.Meta.Kind
		if kind == "" {
			kind = content.KindPage
		}
		hits = append(hits, Hit{Path: c.sec.Path, Title: content.Inert(c.displayTitle()), Revision: c.page.Revision, Score: score,
			Excerpt: ex, NeedsReview: c.review, Heading: content.Inert(c.sec.Heading), Anchor: c.sec.Anchor, Kind: kind, Tokens: n})
	}
	return hits, total
}

// excerpt trims a section's Markdown to at most limit tokens: the heading
// line, then the paragraphs that hold the most distinct question terms, in
// their original order, with "…" where text was left out. Paragraphs are
// kept as the page has them (indentation, whole code blocks), so that an
// excerpt is the page's text but for its gaps. A matching paragraph too
// long for what is left is cut to its matching lines rather than dropped;
// a section where no paragraph matches gives its opening.
func excerpt(text string, terms []string, limit int) string {
	text = trimBlank(text)
	room := limit * 4 // EstimateTokens(s) <= limit exactly when s has at most 4*limit runes
	if utf8.RuneCountInString(text) <= room {
		return text
	}
	paras := splitParagraphs(text)
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	hits := make([]int, len(paras))
	var order []int
	for i, p := range paras {
		for t := range termSet(p) {
			if want[t] {
				hits[i]++
			}
		}
		order = append(order, i)
	}
	// Best paragraphs first; on ties, earlier ones (a section's opening
	// usually states its point).
	sort.SliceStable(order, func(a, b int) bool { return hits[order[a]] > hits[order[b]] })
	x := &excerptBuilder{paras: paras, text: map[int]string{}, room: room}
	if strings.HasPrefix(paras[0], "#") {
		x.add(0, paras[0]) // the heading always comes first
	}
	matched := false
	for _, i := range order {
		if hits[i] == 0 {
			break
		}
		if x.add(i, paras[i]) {
			matched = true
			continue
		}
		if left := x.left(i); left >= minExcerptTokens*2 {
			if c := clipParagraph(paras[i], want, left); c != "" && x.add(i, c) {
				matched = true
			}
		}
	}
	if !matched {
		for i, p := range paras {
			if _, ok := x.text[i]; ok {
				continue
			}
			if !x.add(i, p) {
				if c := clipRunes(p, x.left(i)); c != "" {
					x.add(i, c)
				}
				break
			}
		}
	}
	return x.String()
}

// excerptBuilder keeps chosen paragraphs (some cut) within room runes,
// counting the separators and gap marks the excerpt will hold.
type excerptBuilder struct {
	paras []string
	text  map[int]string
	room  int
}

// add keeps paragraph i as t when the excerpt stays within room.
func (x *excerptBuilder) add(i int, t string) bool {
	x.text[i] = t
	if utf8.RuneCountInString(x.String()) > x.room {
		delete(x.text, i)
		return false
	}
	return true
}

// left is how many runes paragraph i may take: room less the excerpt with
// i kept empty, so that its separators are paid for.
func (x *excerptBuilder) left(i int) int {
	x.text[i] = ""
	n := x.room - utf8.RuneCountInString(x.String())
	delete(x.text, i)
	return n
}

func (x *excerptBuilder) String() string {
	kept := make([]int, 0, len(x.text))
	for i := range x.text {
		kept = append(kept, i)
	}
	sort.Ints(kept)
	var b strings.Builder
	next := 0 // the paragraph that follows the last one written
	for n, i := range kept {
		gap := i > next
		switch {
		case n == 0 && gap:
			b.WriteString("…\n\n")
		case n > 0 && gap:
			b.WriteString("\n\n…\n\n")
		case n > 0:
			b.WriteString("\n\n")
		}
		b.WriteString(x.text[i])
		next = i + 1
	}
	return b.String()
}

// splitParagraphs splits Markdown at blank lines, keeping a heading line as
// a paragraph of its own and a fenced code block whole, blank lines and
// all, and on its own (text right before or after it is another
// paragraph), so that a cut never separates a fence from its close.
// Paragraphs keep their indentation.
func splitParagraphs(text string) []string {
	var out []string
	var cur []string
	fence := ""
	flush := func() {
		if p := trimBlank(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			cur = append(cur, l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				flush() // a code block is a paragraph of its own
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			flush()
			cur = append(cur, l)
			fence = strings.Repeat(t[:1], len(t)-len(strings.TrimLeft(t, t[:1])))
		case t == "":
			flush()
		case strings.HasPrefix(t, "#") && len(cur) == 0:
			cur = append(cur, l)
			flush()
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// clipParagraph cuts a paragraph too long for room runes to the lines that
// best hold question terms, in their order, "…" between runs: a long list
// keeps the items asked about. A term on fewer of the paragraph's lines
// counts for more ("Peru" in a list of meetups, each of which says "Go
// meetup"). A code block keeps its fences; a paragraph of one line is cut
// at a word boundary.
func clipParagraph(p string, want map[string]bool, room int) string {
	lines := strings.Split(p, "\n")
	if len(lines) == 1 {
		return clipRunes(p, room)
	}
	open := strings.TrimSpace(lines[0])
	fenced := strings.HasPrefix(open, "```") || strings.HasPrefix(open, "~~~")
	sets := make([]map[string]bool, len(lines))
	df := map[string]int{}
	for i, l := range lines {
		sets[i] = termSet(l)
		for t := range sets[i] {
			if want[t] {
				df[t]++
			}
		}
	}
	score := make([]float64, len(lines))
	var order []int
	// summed in the terms' order, not a map's: floating-point sums in
	// another order can differ in the last bit and break a tie the other
	// way, so the same question would get another excerpt
	terms := slices.Sorted(maps.Keys(df))
	for i := range lines {
		for _, t := range terms {
			if sets[i][t] {
				score[i] += 1 / float64(df[t])
			}
		}
		if score[i] > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	keep := map[int]bool{}
	if fenced {
		keep[0], keep[len(lines)-1] = true, true
	}
	render := func() string {
		var b []string
		next := 0
		for i, l := range lines {
			if !keep[i] {
				continue
			}
			if i > next && len(b) > 0 {
				b = append(b, "…")
			}
			b = append(b, l)
			next = i + 1
		}
		return strings.Join(b, "\n")
	}
	kept, used := 0, 0 // used: the kept lines' runes, a lower bound of render's
	for i := range keep {
		used += utf8.RuneCountInString(lines[i]) + 1
	}
	for _, i := range order {
		n := utf8.RuneCountInString(lines[i]) + 1
		if keep[i] || used+n > room {
			continue // cheap: most lines of a long list fail here, unrendered
		}
		keep[i] = true
		if utf8.RuneCountInString(render()) > room {
			delete(keep, i)
			continue
		}
		kept++
		used += n
	}
	if kept > 0 {
		return render()
	}
	if fenced {
		return "" // a code block cut at a word would leave its fence open
	}
	return clipRunes(p, room)
}

// clipRunes cuts s to at most room runes at a word boundary, " …" included.
func clipRunes(s string, room int) string {
	if utf8.RuneCountInString(s) <= room {
		return s
	}
	if room < 8 {
		return ""
	}
	cut := string([]rune(s)[:room-2])
	if i := strings.LastIndexAny(cut, " \n"); i > len(cut)/2 {
		cut = cut[:i]
	}
	return cut + " …"
}

// trimBlank drops the blank lines around a text and its trailing spaces,
// keeping the first line's indentation.
func trimBlank(s string) string {
	s = strings.TrimRight(s, " \t\n\r")
	for {
		l, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(l) != "" {
			return s
		}
		s = rest
	}
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
