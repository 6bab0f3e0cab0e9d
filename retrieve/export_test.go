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
