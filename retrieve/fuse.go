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
// The pages channel (plain BM25 over whole pages, a page scoring as its
// source or its summary, whichever is better) is the backbone: a page's
// fused score is its pages score over the best, times wPages plus the sum of
// weight*score/best of the other channels (score fusion). The other
// channels so re-rank the pages the page search found, in proportion to
// their agreement with it, and cannot lift a page it ranks low: adding them
// (the previous fusion) let a section channel that favoured short,
// off-subject sections push the page plain BM25 ranked first out of the top
// five. Reciprocal rank fusion (weight/(rrfK+rank)) and CombMNZ lost to it.
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
	skipSummaries               bool               // summaries rank only through navigation (tuning only: the previous setting)
	pageSummaries               bool               // except in the pages and feedback channels, where a page scores as its source or its summary, whichever is better
	scoreFusion                 bool               // score fusion; false: reciprocal rank fusion
	pathTitle                   bool               // search a page's folders as part of its title
	coverTop                    int                // results whose text sufficiency reads
	coverPages                  bool               // read their whole page, not just the chosen section
	minCoverage                 float64
	missingShare                float64 // a question term none of the best results hold, this share of the weight or more, refuses (0: off) ...
	missingCoverage             float64 // ... unless coverage reaches this
	missingMinPages             uint64  // ... in a space of this many pages or more ...
	missingMaxDF                float64 // ... when the space uses the term in at most this share of its units (or two)
	smallMinCoverage            float64 // minCoverage in a smaller space
	peakRatio, peakMinCoverage  float64 // a best page this far ahead of the fifth in both channels, which agree, is enough from this coverage
	knownMinCoverage            float64 // coverage enough when the space uses every word of the question (0: off)
	wFeedback                   float64 // weight of the pages channel searched with the question expanded by feedback (0: off)
	feedbackDocs, feedbackTerms int
	noSuff                      bool    // never insufficient (tuning only: measures ranking alone)
	noFamily                    bool    // no family spreading (tuning only)
	baseCoverage                bool    // coverage read from the plain page search's best pages, not the fused results
	backbone                    bool    // the pages channel's score times (wPages + the other channels' fused score)
	mnz                         bool    // CombMNZ: the fused score times the number of channels that found the page
	dated                       float64 // a page of a yearly series (yearly) scores this much of itself when the question names no year (1: off)
	acronyms                    bool    // search a question that spells out a long form the space abbreviates with the short form too
	baseForms                   bool    // the gate reads a comparative the space never uses as its adjective (baseForms)
	prox                        float64 // a section's score times 1 + prox × how closely it holds the question's terms together (0: off)
}{
	sectionLimit: 100, pageLimit: 60, rrfK: 20,
	wSections: 1.0, wPages: 2.0, wNav: 0.2, backbone: true,
	pageFields: plainFields, sectionFields: plainFields,
	pathTitle: true, scoreFusion: true,
	coverTop: 3, coverPages: true, minCoverage: 0.4, coverMaxWeight: 0.5,
	missingShare: 0.14, missingCoverage: 0.75, missingMinPages: 100, missingMaxDF: 0.002, smallMinCoverage: 0.56,
	peakRatio: 3, peakMinCoverage: 0.4,
	wFeedback: 0.5, feedbackDocs: 5, feedbackTerms: 4,
	dated: 0.6, acronyms: true, baseForms: true, prox: 3,
}

// group is the fused candidate: the knowledge one page holds, under its
// canonical key (a source and its summary are one group).
type group struct {
	key      string
	family   string
	fused    float64
	channels int         // how many channels found it
	page     float64     // the pages channel's score over its best (backbone fusion)
	sections []index.Hit // its matching sections, best first
}

// rank runs the channels and fuses them into groups, best first, with
// families of near-duplicates kept from crowding the top: the second member
// of a family waits until every family has had its best member placed.
func rank(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev, asked string, tr *Trace, ev *evidence) ([]*group, error) {
	question := asked
	if tune.acronyms {
		defs, err := expandAcronyms(ctx, ix, asked)
		if err != nil {
			return nil, err
		}
		ev.acronyms = defs
		for _, a := range defs {
			tr.Expanded = append(tr.Expanded, a.short)
			question += " " + a.short
		}
	}
	secs, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typeSection}, Limit: tune.sectionLimit, Fields: tune.sectionFields, ExcludeStatus: inactive})
	if err != nil {
		return nil, err
	}
	if tune.prox > 0 && len(secs) > 0 {
		// A section that holds the question's words side by side says
		// what the question asks more surely than one that mentions them
		// paragraphs apart; BM25 sees only counts.
		qt := index.Terms(question)
		st, err := ix.Stats(ctx, qt)
		if err != nil {
			return nil, err
		}
		w := map[string]float64{}
		for _, t := range qt {
			w[t] = idf(max(st.DF[t], 1), st.N)
		}
		for i := range secs {
			h := &secs[i]
			pos := cachedPositions(h.Revision, "prox\x00"+h.Revision+"\x00"+h.ID, func() string {
				return h.Title + "\n" + h.Heading + "\n" + h.Body
			})
			h.Score *= 1 + tune.prox*proximity(pos, w)
		}
		slices.SortStableFunc(secs, func(a, b index.Hit) int { return cmp.Compare(b.Score, a.Score) })
	}
	pages, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typePage}, Limit: tune.pageLimit, Fields: tune.pageFields, ExcludeStatus: inactive, OmitBody: true})
	if err != nil {
		return nil, err
	}
	// Navigation, like feedback, only re-ranks what the pages channel
	// found (backbone fusion): it reads the sections of those of its
	// topics' members.
	found := make(map[string]bool, len(pages))
	for _, h := range pages {
		found[canonical(h.Path)] = true
	}
	nav, err := navigate(ctx, s, ix, head, question, found, tr)
	if err != nil {
		return nil, err
	}
	ev.observe(secs, pages)
	if tune.baseCoverage {
		// The plain page search's own best pages, bodies included: the
		// evidence the sufficiency gate reads (see sufficient).
		ev.basePages, err = ix.Search(ctx, index.Query{Text: question, Types: []string{typePage}, Limit: tune.coverTop, Fields: tune.pageFields, ExcludeStatus: inactive})
		if err != nil {
			return nil, err
		}
	}
	var fb []index.Hit
	if tune.wFeedback > 0 {
		extra, err := feedbackTerms(ctx, ix, question, secs)
		if err != nil {
			return nil, err
		}
		if len(extra) > 0 {
			// Only the pages the pages channel found: the backbone fusion
			// below ranks no other page, so scoring the rest of the space
			// again for the expanded question would be spent for nothing
			// (a sixth of a query's CPU).
			q := index.Query{Text: question + " " + strings.Join(extra, " "), Types: []string{typePage}, Limit: tune.pageLimit, Fields: tune.pageFields, ExcludeStatus: inactive, OmitBody: true}
			for _, h := range pages {
				q.Paths = append(q.Paths, h.Path)
			}
			fb, err = ix.Search(ctx, q)
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
			if tune.skipSummaries && name != "spokes" && h.PageKind == content.KindSummary && !(tune.pageSummaries && !keep) {
				// Tuning only: summaries ranked through the spokes alone.
				// Ranked, a summary's key sentences are often the words
				// a paraphrase shares with the page ("the tiny
				// placeholder container" of the pause image), and the
				// group scores as the better of source and summary.
				continue
			}
			g := get(h)
			if ev.channels != nil && !seen[g.key] {
				ev.channels[name] = append(ev.channels[name], g.key)
			}
			if keep {
				g.addSection(h)
			}
			if seen[g.key] {
				continue
			}
			seen[g.key] = true
			g.channels++
			r++
			if tune.scoreFusion && tune.backbone && name == "pages" {
				g.page = h.Score / hits[0].Score
			} else if tune.scoreFusion {
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
	undated := !hasYear(asked)
	for _, g := range groups {
		if tune.backbone {
			// A page the page search did not find keeps a trace of the
			// other channels' scores, so that it still ranks among its kind.
			g.fused = g.page*(tune.wPages+g.fused) + 1e-3*g.fused
		}
		if tune.mnz {
			g.fused *= float64(g.channels)
		}
		if undated && yearly(g.key) {
			// A page filed under a year (a summit's sessions, an
			// election, a yearly report, a year of meeting notes)
			// records what happened then; a question that names no
			// year asks how things are, and such records share its
			// words without answering it. In k8s-community half the
			// pages are dated and one gold page in ninety-six is.
			g.fused *= tune.dated
		}
		out = append(out, g)
		for _, h := range g.sections {
			pagesRead[h.Path] = true
		}
	}
	tr.PagesRead = len(pagesRead)
	if ev.channels != nil {
		ev.channels["raw-pages"] = nil
		for _, h := range pages {
			ev.channels["raw-pages"] = append(ev.channels["raw-pages"], h.Path)
		}
	}
	tr.Candidates = len(out)
	slices.SortFunc(out, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.fused, a.fused), cmp.Compare(a.key, b.key))
	})
	if tune.noFamily {
		return out, nil
	}
	out = spreadFamilies(out)
	if ev.channels != nil {
		for _, g := range out {
			ev.channels["fused"] = append(ev.channels["fused"], g.key)
		}
	}
	return out, nil
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
