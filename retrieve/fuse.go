package retrieve

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

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
func (e *Engine) rank(ctx context.Context, ix *index.Index, head wiki.Rev, asked string, tr *Trace, ev *evidence) ([]*group, error) {
	ch, err := e.channels(ctx, ix, head, asked, tr, ev)
	if err != nil {
		return nil, err
	}
	return e.fuse(ch, asked, tr, ev), nil
}

// channelHits are what each channel found for one question.
type channelHits struct {
	nav, secs, pages, fb []index.Hit
}

// channels searches the question in every channel: sections (re-scored by
// proximity), pages, navigation and feedback.
func (e *Engine) channels(ctx context.Context, ix *index.Index, head wiki.Rev, asked string, tr *Trace, ev *evidence) (channelHits, error) {
	rk := &e.ranking
	var ch channelHits
	question := asked
	if rk.Acronyms {
		defs, err := expandAcronyms(ctx, ix, asked)
		if err != nil {
			return ch, err
		}
		ev.acronyms = defs
		for _, a := range defs {
			tr.Expanded = append(tr.Expanded, a.short)
			question += " " + a.short
		}
	}
	secs, err := e.sections(ctx, ix, question)
	if err != nil {
		return ch, err
	}
	pages, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typePage}, Limit: rk.PageLimit, Fields: plainFields, ExcludeStatus: inactive, OmitBody: true})
	if err != nil {
		return ch, err
	}
	// Navigation, like feedback, only re-ranks what the pages channel
	// found (backbone fusion): it reads the sections of those of its
	// topics' members.
	found := make(map[string]bool, len(pages))
	for _, h := range pages {
		found[canonical(h.Path)] = true
	}
	nav, err := e.navigate(ctx, ix, head, question, found, tr)
	if err != nil {
		return ch, err
	}
	var fb []index.Hit
	if rk.WFeedback > 0 {
		extra, err := e.feedbackTerms(ctx, ix, question, secs)
		if err != nil {
			return ch, err
		}
		if len(extra) > 0 {
			// Only the pages the pages channel found: the backbone fusion
			// ranks no other page, so scoring the rest of the space
			// again for the expanded question would be spent for nothing
			// (a sixth of a query's CPU).
			q := index.Query{Text: question + " " + strings.Join(extra, " "), Types: []string{typePage}, Limit: rk.PageLimit, Fields: plainFields, ExcludeStatus: inactive, OmitBody: true}
			for _, h := range pages {
				q.Paths = append(q.Paths, h.Path)
			}
			if fb, err = ix.Search(ctx, q); err != nil {
				return ch, err
			}
		}
	}
	return channelHits{nav: nav, secs: secs, pages: pages, fb: fb}, nil
}

// sections is the sections channel: the best sections for the question,
// re-scored by how closely they hold its words together. A section that
// holds them side by side says what the question asks more surely than one
// that mentions them paragraphs apart; BM25 sees only counts.
func (e *Engine) sections(ctx context.Context, ix *index.Index, question string) ([]index.Hit, error) {
	rk := &e.ranking
	secs, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typeSection}, Limit: rk.SectionLimit, Fields: plainFields, ExcludeStatus: inactive})
	if err != nil || rk.Proximity <= 0 || len(secs) == 0 {
		return secs, err
	}
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
		pos := e.cache.cachedPositions(h.Revision, "prox\x00"+h.Revision+"\x00"+h.ID, func() string {
			return h.Title + "\n" + h.Heading + "\n" + h.Body
		})
		h.Score *= 1 + rk.Proximity*proximity(pos, w)
	}
	slices.SortStableFunc(secs, func(a, b index.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return secs, nil
}

// fuse merges the channels' hits into groups, one per page (a source and
// its summary are one), scored by backbone fusion, best first.
func (e *Engine) fuse(ch channelHits, asked string, tr *Trace, ev *evidence) []*group {
	rk := &e.ranking
	groups := map[string]*group{}
	addChannel := func(hits []index.Hit, w float64, name string, keep bool) {
		if len(hits) > 0 {
			tr.Channels = append(tr.Channels, name)
		}
		seen := map[string]bool{}
		for _, h := range hits {
			k := canonical(h.Path)
			g := groups[k]
			if g == nil {
				g = &group{key: k, family: h.Family}
				groups[k] = g
			}
			if ev.channels != nil && !seen[k] {
				ev.channels[name] = append(ev.channels[name], k)
			}
			if keep {
				g.addSection(h)
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			g.channels++
			if name == "pages" {
				g.page = h.Score / hits[0].Score
			} else {
				g.fused += w * h.Score / hits[0].Score
			}
		}
	}
	addChannel(ch.nav, rk.WNav, "spokes", true)
	addChannel(ch.secs, rk.WSections, "sections", true)
	addChannel(ch.pages, rk.WPages, "pages", false)
	addChannel(ch.fb, rk.WFeedback, "feedback", false)

	out := make([]*group, 0, len(groups))
	pagesRead := map[string]bool{}
	undated := !hasYear(asked)
	for _, g := range groups {
		// A page the page search did not find keeps a trace of the
		// other channels' scores, so that it still ranks among its kind.
		g.fused = g.page*(rk.WPages+g.fused) + 1e-3*g.fused
		if undated && yearly(g.key) {
			// A page filed under a year (a summit's sessions, an
			// election, a yearly report, a year of meeting notes)
			// records what happened then; a question that names no
			// year asks how things are, and such records share its
			// words without answering it. In k8s-community half the
			// pages are dated and one gold page in ninety-six is.
			g.fused *= rk.Dated
		}
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
	out = spreadFamilies(out)
	if ev.channels != nil {
		for _, h := range ch.pages {
			ev.channels["raw-pages"] = append(ev.channels["raw-pages"], h.Path)
		}
		for _, g := range out {
			ev.channels["fused"] = append(ev.channels["fused"], g.key)
		}
	}
	return out
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
