//go:build evalcorpora

package retrieve_test

import (
	"os"
	"testing"

	"github.com/ptwiki/pt/retrieve"
)

// TestImportedCorpusAtScale asks the corpora's questions in a space that
// holds the imported corpus among thousands of generated pages (PT_EVAL_PAD,
// default 9,000, in the vocabulary of a team's engineering notes: cluster,
// release, review, owner, election...). A team's space grows far past the
// pages any one question is about; the figures tell whether the ranking and
// the refusals hold when most of the space is noise that shares the
// question's words. PT_EVAL=1 only, a few minutes.
func TestImportedCorpusAtScale(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to evaluate on the corpora")
	}
	pad := envPages(t, "PT_EVAL_PAD", 9000)
	for _, c := range evalCorpora {
		t.Run(c.name, func(t *testing.T) {
			s := importCorpus(t, c)
			addGenerated(t, s, pad)
			retrieve.LogCorpusEval(t, s, c.sets(), evalWhen)
		})
	}
}

// TestImportedCorporaTogether asks each corpus's questions in one space that
// holds both corpora, as a space grows to hold several teams' knowledge: the
// Go wiki's pages are real, coherent distractors for the Kubernetes
// community's questions, and the other way round. PT_EVAL=1 only.
func TestImportedCorporaTogether(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to evaluate on the corpora")
	}
	s := importCorpus(t, evalCorpora[0])
	for _, c := range evalCorpora[1:] {
		importInto(t, s, c)
	}
	for _, c := range evalCorpora {
		t.Run(c.name, func(t *testing.T) {
			retrieve.LogCorpusEval(t, s, c.sets(), evalWhen)
		})
	}
}
