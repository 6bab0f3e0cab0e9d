//go:build evalcorpora

package retrieve

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
			"best": ev.Best, "union": ev.Union, "top1": ev.Top1, "absent": ev.Absent, "missmax": ev.MissingMax, "terms": ev.Terms})
	}
	return func() { gateHook = nil }
}

func init() {
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
	// before: the settings as they were before feedback and the peak rule.
	TuneVariants["before"] = func() { tune.wFeedback, tune.peakRatio = 0, 1e9 }
}
