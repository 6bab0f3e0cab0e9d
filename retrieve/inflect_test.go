package retrieve

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ptwiki/pt/content"
)

func TestComparedForms(t *testing.T) {
	for w, want := range map[string][]string{
		"oldest":  {"old", "olde"},
		"largest": {"larg", "large"},
		"biggest": {"bigg", "bigge", "big"},
		"easiest": {"easi", "easie", "easy"},
		"newer":   {"new", "newe"},
		"old":     nil,
		"best":    nil,
		"test":    nil,
	} {
		if got := comparedForms(w); !slices.Equal(got, want) {
			t.Errorf("comparedForms(%q) = %q, want %q", w, got, want)
		}
	}
}

// A superlative the pages never use, of an adjective they do use, does not
// leave the question looking unanswered.
func TestSuperlativeIsNotAMissingSubject(t *testing.T) {
	s := newSpace(t)
	files := map[string]string{
		"pages/requirements.md": page(content.Meta{Title: "Minimum requirements"},
			"# Minimum requirements\n\nGo runs on Linux kernels as old as 2.6.32; older kernels are not supported.\n"),
	}
	// A space large enough to tell rare words from common ones, whose
	// pages share the question's other words.
	padSpace(files, "port", "Port %d", func(i int) string {
		return fmt.Sprintf("# Port %d\n\nNotes on building Go for board %d, what it runs on and which Linux it needs.\n", i, i)
	})
	put(t, s, files)
	coveredOnlyWith(t, s, "What is the oldest Linux kernel Go runs on?", "pages/requirements.md", "oldest", func(rk *Ranking) { rk.BaseForms = false })
}
