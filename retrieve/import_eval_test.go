//go:build evalcorpora

package retrieve_test

import (
	"os"
	"testing"

	"github.com/ptwiki/pt/retrieve"
)

// TestImportedCorpusEval evaluates retrieval on the corpora as `pt import`
// brings them in (sources, summaries, topics, spokes), the path a team takes.
// It runs with PT_EVAL=1 only (about a minute); docs/retrieval.md has the
// figures and the equivalent pt commands.
func TestImportedCorpusEval(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to evaluate on the corpora")
	}
	for _, c := range evalCorpora {
		t.Run(c.name, func(t *testing.T) {
			s := importCorpus(t, c)
			retrieve.LogCorpusEval(t, s, c.sets(), evalWhen)
		})
	}
}
