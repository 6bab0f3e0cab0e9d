package retrieve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// TestCorpusEval evaluates retrieval on the shared corpora. It takes tens of
// seconds, so it runs only with PT_EVAL=1; `pt eval` is the reproducible
// path (docs/retrieval.md).
func TestCorpusEval(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to evaluate on the corpora")
	}
	for _, c := range []struct{ corpus, dev, own, final string }{
		{"gowiki", "gowiki-dev-questions.jsonl", "testdata/gowiki-questions.jsonl", "testdata/gowiki-final-questions.jsonl"},
		{"k8s-community", "k8s-dev-questions.jsonl", "testdata/k8s-questions.jsonl", "testdata/k8s-final-questions.jsonl"},
	} {
		t.Run(c.corpus, func(t *testing.T) {
			dir := filepath.Join(spacegen.Corpora(), c.corpus)
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			s := corpusSpace(t, dir)
			logCorpusEval(t, s, []string{filepath.Join(spacegen.Corpora(), c.dev), c.own, c.final}, testWhen)
		})
	}
}

// logCorpusEval evaluates each question file on s and logs the figures of
// every system (and, with PT_EVAL_VERBOSE, every question). A missing file
// is logged and skipped: the corpora's question sets travel apart from pt.
func logCorpusEval(t *testing.T, s *wiki.Space, files []string, when time.Time) {
	t.Helper()
	eng := Open(s, Options{})
	defer eng.Close()
	for _, qf := range files {
		f, err := os.Open(qf)
		if err != nil {
			t.Fatal(err) // a misnamed set would otherwise vanish from the figures
		}
		qs, err := ReadQuestions(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eng.Eval(context.Background(), qs, EvalOptions{Now: when})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (%d questions)", filepath.Base(qf), len(qs))
		for _, f := range rep.Systems {
			b, _ := json.Marshal(f)
			t.Logf("  %s", b)
		}
		if os.Getenv("PT_EVAL_VERBOSE") != "" {
			for _, r := range rep.Results {
				b, _ := json.Marshal(r)
				t.Logf("  %s", b)
			}
		}
	}
}
