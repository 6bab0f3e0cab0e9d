package spacegen

import (
	"os"
	"path/filepath"
)

// Corpora returns the directory of the real Markdown corpora that tests and
// benchmarks measure against: $PT_CORPORA, else shared/corpora beside the
// repository (found by walking up from the working directory). It returns
// "" when there is none, and callers skip.
func Corpora() string {
	if d := os.Getenv("PT_CORPORA"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "corpora")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
