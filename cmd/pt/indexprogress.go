package main

import (
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// indexProgressFrom is the number of changed files from which catching
// the index up is shown as progress: below it, it takes well under a
// second.
const indexProgressFrom = 2000

// indexProgress returns the retrieve.Options.Progress of a command that
// may build the derived index (the first query after an import), and the
// function that clears it. Progress goes to stderr, only when it is a
// terminal and the output is not JSON; otherwise both are no-ops.
func (e *env) indexProgress() (progress func(done, total int), finish func()) {
	f, ok := e.stderr.(*os.File)
	if !ok || e.json || !term.IsTerminal(int(f.Fd())) {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	progress = func(done, total int) {
		if total < indexProgressFrom {
			return
		}
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("building the search index"),
				progressbar.OptionClearOnFinish(), progressbar.OptionShowCount(), progressbar.OptionThrottle(100e6))
		}
		_ = bar.Set(done)
	}
	finish = func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
	return progress, finish
}
