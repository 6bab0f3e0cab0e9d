//go:build evalcorpora

package retrieve

// LogCorpusEval is logCorpusEval for the external corpus tests.
var LogCorpusEval = logCorpusEval

// TuneVariants are named changes to DefaultRanking, for the sweep in
// TestTuneImported and the dumps of TestDumpEvidence.
func TuneVariants() map[string]func(*Ranking) {
	return map[string]func(*Ranking){
		"default":     func(*Ranking) {},
		"nav0":        func(r *Ranking) { r.WNav = 0 },
		"nav0.7":      func(r *Ranking) { r.WNav = 0.7 },
		"pages-only":  func(r *Ranking) { r.WSections, r.WNav = 0, 0 },
		"noacr":       func(r *Ranking) { r.Acronyms = false },
		"nobase":      func(r *Ranking) { r.BaseForms = false },
		"noprox":      func(r *Ranking) { r.Proximity = 0 },
		"slim60":      func(r *Ranking) { r.SectionLimit = 60 },
		"undated":     func(r *Ranking) { r.Dated = 1 },
		"dated0.8":    func(r *Ranking) { r.Dated = 0.8 },
		"dated0.4":    func(r *Ranking) { r.Dated = 0.4 },
		"pages1.5":    func(r *Ranking) { r.WPages = 1.5 },
		"pages3":      func(r *Ranking) { r.WPages = 3 },
		"sections0.5": func(r *Ranking) { r.WSections = 0.5 },
		"s0":          func(r *Ranking) { r.WSections = 0 },
		"fb0":         func(r *Ranking) { r.WFeedback = 0 },
		"fb1":         func(r *Ranking) { r.WFeedback = 1 },
		"fb1-d3":      func(r *Ranking) { r.WFeedback, r.FeedbackDocs = 1, 3 },
		"fb0.25":      func(r *Ranking) { r.WFeedback = 0.25 },
		"fb1-t8":      func(r *Ranking) { r.WFeedback, r.FeedbackTerms = 1, 8 },
		"fb0.5-t8":    func(r *Ranking) { r.FeedbackTerms = 8 },
		"fb0.5-d10":   func(r *Ranking) { r.FeedbackDocs = 10 },
	}
}

// TuneRanking is DefaultRanking changed by the variant name, with the
// sufficiency gate open (every question answered) when noSuff is set, so
// that figures measure ranking alone.
func TuneRanking(name string, noSuff bool) Ranking {
	rk := DefaultRanking()
	TuneVariants()[name](&rk)
	if noSuff {
		rk.CoverFloor, rk.AbsentTop1, rk.Names = 0, 0, false
	}
	return rk
}

// SetGateHook makes every query of e report its sufficiency evidence to f
// (tuning only).
func SetGateHook(e *Engine, f func(question string, features map[string]any)) {
	e.gate = func(ev evidence) {
		f(ev.Question, map[string]any{"best": ev.Best, "union": ev.Union, "top1": ev.Top1, "absent": ev.Absent, "terms": ev.Terms,
			"n": ev.N, "pages": ev.Pages, "dfs": ev.DFs, "channels": ev.channels, "tl": ev.TermList, "words": ev.Words, "held": ev.HeldBy})
	}
}

// GoldRank is goldRank for the external tuning tests.
var GoldRank = goldRank
