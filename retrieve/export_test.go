//go:build evalcorpora

package retrieve

// LogCorpusEval is logCorpusEval for the external corpus tests.
var LogCorpusEval = logCorpusEval

// TuneVariants are named changes to the ranking settings, for the sweep in
// TestTuneImported (an external test, which cannot reach tune itself).
var TuneVariants = map[string]func(){
	"default":     func() {},
	"nav0":        func() { tune.wNav = 0 },
	"nav0.7":      func() { tune.wNav = 0.7 },
	"rrf":         func() { tune.scoreFusion = false },
	"summaries":   func() { tune.skipSummaries = false },
	"boosted":     func() { tune.pageFields, tune.sectionFields = nil, nil },
	"nopathtitle": func() { tune.pathTitle = false },
	"nofamily":    func() { tune.noFamily = true },
	"pages-only":  func() { tune.wSections, tune.wNav = 0, 0 },
}

// WithTune applies a variant, with sufficiency off when noSuff is set, and
// returns a function that restores the defaults.
func WithTune(name string, noSuff bool) func() {
	saved := tune
	TuneVariants[name]()
	tune.noSuff = tune.noSuff || noSuff
	return func() { tune = saved }
}

// SetGateHook makes every Query report its sufficiency evidence as JSON to
// f (tuning only); the returned function removes the hook.
func SetGateHook(f func(question string, features map[string]any)) func() {
	gateHook = func(ev evidence) {
		f(ev.Question, map[string]any{"agree": ev.Agree, "agree3": ev.AgreeTop3, "pratio": ev.PageRatio, "sratio": ev.SecRatio,
			"best": ev.Best, "union": ev.Union, "top1": ev.Top1, "absent": ev.Absent, "missmax": ev.MissingMax, "terms": ev.Terms, "mterm": ev.MissingTerm, "mdf": ev.MissingDF, "n": ev.N, "dfs": ev.DFs, "channels": ev.channels})
	}
	return func() { gateHook = nil }
}

func init() {
	TuneVariants["noacr"] = func() { tune.acronyms = false }
	TuneVariants["nobase"] = func() { tune.baseForms = false }
	TuneVariants["noprox"] = func() { tune.prox = 0 }
	TuneVariants["slim60"] = func() { tune.sectionLimit = 60 }
	TuneVariants["undated"] = func() { tune.dated = 1 }
	TuneVariants["dated0.8"] = func() { tune.dated = 0.8 }
	TuneVariants["dated0.6"] = func() { tune.dated = 0.6 }
	TuneVariants["dated0.4"] = func() { tune.dated = 0.4 }
	TuneVariants["known0.55"] = func() { tune.knownMinCoverage = 0.55 }
	TuneVariants["known0.5"] = func() { tune.knownMinCoverage = 0.5 }
	TuneVariants["nopeak"] = func() { tune.peakRatio = 1e9 }
	TuneVariants["pages1.5"] = func() { tune.wPages = 1.5 }
	TuneVariants["pages2"] = func() { tune.wPages = 2 }
	TuneVariants["sections0.5"] = func() { tune.wSections = 0.5 }
}

func init() {
	TuneVariants["fb0.5"] = func() { tune.wFeedback = 0.5 }
	TuneVariants["fb1"] = func() { tune.wFeedback = 1 }
	TuneVariants["fb0.5-t4"] = func() { tune.wFeedback, tune.feedbackTerms = 0.5, 4 }
	TuneVariants["fb1-d3"] = func() { tune.wFeedback, tune.feedbackDocs = 1, 3 }
}

func init() {
	// before: the settings at the start of the round that made the pages
	// channel the backbone (docs/retrieval.md).
	TuneVariants["before"] = func() {
		tune.backbone, tune.wPages, tune.skipSummaries, tune.pageSummaries, tune.baseCoverage = false, 1, true, false, false
		tune.minCoverage, tune.smallMinCoverage, tune.missingShare = 0.6, 0.6, 0
	}
	// cov0.56: the single threshold before the missing-word rule.
	TuneVariants["cov0.56"] = func() { tune.minCoverage, tune.missingShare = 0.56, 0 }
	TuneVariants["missing-off"] = func() { tune.missingShare = 0 }
	TuneVariants["basecov"] = func() { tune.baseCoverage = true }
}

func init() {
	TuneVariants["pgsum"] = func() { tune.pageSummaries = true }
	TuneVariants["pgsum-s0.5"] = func() { tune.pageSummaries, tune.wSections = true, 0.5 }
	TuneVariants["pgsum-s0.3"] = func() { tune.pageSummaries, tune.wSections = true, 0.3 }
	TuneVariants["pgsum-fb0"] = func() { tune.pageSummaries, tune.wFeedback = true, 0 }
	TuneVariants["s0.5"] = func() { tune.wSections = 0.5 }
	TuneVariants["pages-only-sum"] = func() { tune.pageSummaries, tune.wSections, tune.wNav, tune.wFeedback = true, 0, 0, 0 }
}

func init() {
	TuneVariants["pgsum-s0.3-fb0.3"] = func() { tune.pageSummaries, tune.wSections, tune.wFeedback = true, 0.3, 0.3 }
	TuneVariants["pgsum-s0.3-nav0"] = func() { tune.pageSummaries, tune.wSections, tune.wNav = true, 0.3, 0 }
	TuneVariants["pgsum-s0"] = func() { tune.pageSummaries, tune.wSections = true, 0 }
	TuneVariants["pgsum-fb1"] = func() { tune.pageSummaries, tune.wFeedback = true, 1 }
	TuneVariants["pgsum-mnz"] = func() { tune.pageSummaries, tune.mnz = true, true }
	TuneVariants["pgsum-mnz-s0.5"] = func() { tune.pageSummaries, tune.mnz, tune.wSections = true, true, 0.5 }
}

func init() {
	TuneVariants["bb"] = func() { tune.pageSummaries, tune.backbone = true, true }
	TuneVariants["bb-s0.5"] = func() { tune.pageSummaries, tune.backbone, tune.wSections = true, true, 0.5 }
	TuneVariants["bb-s0.3-nav0"] = func() { tune.pageSummaries, tune.backbone, tune.wSections, tune.wNav = true, true, 0.3, 0 }
	TuneVariants["bb-p2"] = func() { tune.pageSummaries, tune.backbone, tune.wPages = true, true, 2 }
}

func init() {
	TuneVariants["bb-p2-allsum"] = func() { tune.pageSummaries, tune.backbone, tune.wPages, tune.skipSummaries = true, true, 2, false }
	TuneVariants["bb-p3"] = func() { tune.pageSummaries, tune.backbone, tune.wPages = true, true, 3 }
	TuneVariants["bb-p2-fb0.3"] = func() { tune.pageSummaries, tune.backbone, tune.wPages, tune.wFeedback = true, true, 2, 0.3 }
}

func init() {
	TuneVariants["fb0"] = func() { tune.wFeedback = 0 }
	TuneVariants["s0"] = func() { tune.wSections = 0 }
}
