package retrieve

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// tune holds the ranking and sufficiency settings, chosen on the
// development and own questions of both corpora (docs/retrieval.md has the
// figures; TestTuneImported sweeps the variants of export_test.go).
//
// Channels are fused per page by the sum of weight*score/best score of the
// channel (score fusion), which beat reciprocal rank fusion (weight/(rrfK+
// rank), kept as a variant): a page far ahead in one channel stays ahead.
// Plain title+body BM25 beat the index's boosted fields (title 3, heading 2,
// summary 2) on both corpora. Navigation has a small weight: the topics an
// import derives are broad, and a larger weight let a whole topic's pages
// crowd out the page that answers.
var tune = struct {
	sectionLimit, pageLimit     int
	rrfK                        float64
	wSections, wPages, wNav     float64
	pageFields, sectionFields   map[string]float64 // nil: the index's DefaultFields
	coverMaxWeight              float64            // share of coverage taken from the best single page (the rest from the best pages jointly)
	skipSummaries               bool               // summaries rank only through navigation
	scoreFusion                 bool               // score fusion; false: reciprocal rank fusion
	pathTitle                   bool               // search a page's folders as part of its title
	coverTop                    int                // results whose text sufficiency reads
	coverPages                  bool               // read their whole page, not just the chosen section
	minCoverage                 float64
	peakRatio, peakMinCoverage  float64 // a best page this far ahead of the fifth in both channels, which agree, is enough from this coverage
	knownMinCoverage            float64 // coverage enough when the space uses every word of the question (0: off)
	wFeedback                   float64 // weight of the pages channel searched with the question expanded by feedback (0: off)
	feedbackDocs, feedbackTerms int
	noSuff                      bool // never insufficient (tuning only: measures ranking alone)
	noFamily                    bool // no family spreading (tuning only)
}{
	sectionLimit: 60, pageLimit: 60, rrfK: 20,
	wSections: 1.0, wPages: 1.0, wNav: 0.2,
	pageFields: plainFields, sectionFields: plainFields,
	pathTitle: true, scoreFusion: true, skipSummaries: true,
	coverTop: 3, coverPages: true, minCoverage: 0.6, coverMaxWeight: 0.5,
	peakRatio: 3, peakMinCoverage: 0.4,
	wFeedback: 0.5, feedbackDocs: 5, feedbackTerms: 4,
}

// group is the fused candidate: the knowledge one page holds, under its
// canonical key (a source and its summary are one group).
type group struct {
	key      string
	family   string
	fused    float64
	sections []index.Hit // its matching sections, best first
}

// rank runs the channels and fuses them into groups, best first, with
// families of near-duplicates kept from crowding the top: the second member
// of a family waits until every family has had its best member placed.
func rank(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev, question string, tr *Trace, ev *evidence) ([]*group, error) {
	secs, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typeSection}, Limit: tune.sectionLimit, Fields: tune.sectionFields, ExcludeStatus: inactive})
	if err != nil {
		return nil, err
	}
	pages, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typePage}, Limit: tune.pageLimit, Fields: tune.pageFields, ExcludeStatus: inactive, OmitBody: true})
	if err != nil {
		return nil, err
	}
	nav, err := navigate(ctx, s, ix, head, question, tr)
	if err != nil {
		return nil, err
	}
	ev.observe(secs, pages)
	var fb []index.Hit
	if tune.wFeedback > 0 {
		extra, err := feedbackTerms(ctx, ix, question, secs)
		if err != nil {
			return nil, err
		}
		if len(extra) > 0 {
			fb, err = ix.Search(ctx, index.Query{Text: question + " " + strings.Join(extra, " "), Types: []string{typePage}, Limit: tune.pageLimit, Fields: tune.pageFields, ExcludeStatus: inactive, OmitBody: true})
			if err != nil {
				return nil, err
			}
		}
	}
	groups := map[string]*group{}
	get := func(h index.Hit) *group {
		k := canonical(h.Path)
		g := groups[k]
		if g == nil {
			g = &group{key: k, family: h.Family}
			groups[k] = g
		}
		return g
	}
	addChannel := func(hits []index.Hit, w float64, name string, keep bool) {
		if len(hits) > 0 {
			tr.Channels = append(tr.Channels, name)
		}
		seen := map[string]bool{}
		r := 0
		for _, h := range hits {
			if tune.skipSummaries && name != "spokes" && h.PageKind == content.KindSummary {
				// A summary restates its source in fewer words, so BM25's
				// length normalisation ranks its stray matches above the
				// source's real ones; the source speaks for both here, the
				// summary through the spokes.
				continue
			}
			g := get(h)
			if keep {
				g.addSection(h)
			}
			if seen[g.key] {
				continue
			}
			seen[g.key] = true
			r++
			if tune.scoreFusion {
				g.fused += w * h.Score / hits[0].Score
			} else {
				g.fused += w / (tune.rrfK + float64(r))
			}
		}
	}
	addChannel(nav, tune.wNav, "spokes", true)
	addChannel(secs, tune.wSections, "sections", true)
	addChannel(pages, tune.wPages, "pages", false)
	addChannel(fb, tune.wFeedback, "feedback", false)

	out := make([]*group, 0, len(groups))
	pagesRead := map[string]bool{}
	for _, g := range groups {
		out = append(out, g)
		for _, h := range g.sections {
			pagesRead[h.Path] = true
		}
	}
	tr.PagesRead = len(pagesRead)
	tr.Candidates = len(out)
	slices.SortFunc(out, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.fused, a.fused), cmp.Compare(a.key, b.key))
	})
	if tune.noFamily {
		return out, nil
	}
	return spreadFamilies(out), nil
}

// addSection records a matching section once, keeping them best first.
func (g *group) addSection(h index.Hit) {
	for _, x := range g.sections {
		if x.ID == h.ID {
			return
		}
	}
	g.sections = append(g.sections, h)
	slices.SortStableFunc(g.sections, func(a, b index.Hit) int { return cmp.Compare(b.Score, a.Score) })
}

// spreadFamilies keeps the order but moves every group whose family already
// has a better member behind all first members.
func spreadFamilies(gs []*group) []*group {
	seen := map[string]bool{}
	first := make([]*group, 0, len(gs))
	var later []*group
	for _, g := range gs {
		if g.family != "" && seen[g.family] {
			later = append(later, g)
			continue
		}
		seen[g.family] = true
		first = append(first, g)
	}
	return append(first, later...)
}
