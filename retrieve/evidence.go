package retrieve

import (
	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
)

// evidence is what the sufficiency decision reads besides term coverage:
// how the two full-text channels agree on the best page, and how far their
// best page stands out from the rest.
type evidence struct {
	Question string

	// From the channels (observe).
	Agree     bool    // the sections channel and the pages channel have the same best page
	AgreeTop3 bool    // the pages channel's best page is among the sections channel's first three pages
	PageRatio float64 // the pages channel: best score over the fifth best
	SecRatio  float64 // the sections channel: best page's score over the fifth best page's

	// From the coverage (sufficient).
	Best, Union, Top1 float64  // shares of the question's weight: best single result, the top results jointly, the first result
	Absent            float64  // share of the weight held by terms the space never uses
	MissingMax        float64  // the heaviest term the top results lack, as a share of the weight
	MissingTerm       string   // that term (tuning)
	MissingDF, N      uint64   // how many units of the space hold it, of how many (tuning)
	DFs               []uint64 // every question term's document frequency (tuning)
	Terms             int

	acronyms []acronym // the definitions whose long forms the question spells out (a page's short form holds them)

	channels map[string][]string // each channel's pages in order, and the fused order (tuning only: set when Engine.gate is)
}

// observe records the channels' agreement and peakedness. Summaries are
// left out, as in the fusion.
func (ev *evidence) observe(secs, pages []index.Hit) {
	sp := channelPages(secs)
	pp := channelPages(pages)
	if len(sp) > 0 && len(pp) > 0 {
		ev.Agree = sp[0].key == pp[0].key
		for i := 0; i < min(3, len(sp)); i++ {
			if sp[i].key == pp[0].key {
				ev.AgreeTop3 = true
			}
		}
	}
	ev.PageRatio = ratio5(pp)
	ev.SecRatio = ratio5(sp)
}

type keyScore struct {
	key   string
	score float64
}

// channelPages is a channel's hits reduced to one per page (its best), in
// order, summaries skipped.
func channelPages(hits []index.Hit) []keyScore {
	var out []keyScore
	seen := map[string]bool{}
	for _, h := range hits {
		if h.PageKind == content.KindSummary {
			continue
		}
		k := canonical(h.Path)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, keyScore{k, h.Score})
	}
	return out
}

func ratio5(ks []keyScore) float64 {
	if len(ks) == 0 {
		return 0
	}
	last := ks[min(4, len(ks)-1)].score
	if last <= 0 {
		return 10
	}
	return ks[0].score / last
}

// standsOut reports whether a question that covers too little of its
// weight is answered all the same: its best page stands far ahead of the
// fifth in both full-text channels, which agree on it (a margin over the
// background that words scattered over unrelated pages never reach).
// Thresholds were chosen on half of the development and own questions and
// checked on the other half (docs/retrieval.md).
func (ev *evidence) standsOut(rk *Ranking, cov float64) bool {
	return cov >= rk.PeakMinCoverage && ev.Agree && min(ev.PageRatio, ev.SecRatio) >= rk.PeakRatio
}
