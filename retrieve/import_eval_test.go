//go:build evalcorpora

package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// TestImportedCorpusEval evaluates retrieval on the corpora as `pt import`
// brings them in (sources, summaries, topics, spokes), the path a team takes.
// It runs with PT_EVAL=1 only (about a minute); docs/retrieval.md has the
// figures and the equivalent pt commands.
func TestImportedCorpusEval(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to evaluate on the corpora")
	}
	root := spacegen.Corpora()
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		corpus, dev, own, final string
		prefixes                []string
	}{
		{"gowiki", "gowiki-dev-questions.jsonl", "testdata/gowiki-questions.jsonl", "testdata/gowiki-final-questions.jsonl", []string{"/wiki/", "https://go.dev/wiki/", "https://golang.org/wiki/", "https://github.com/golang/go/wiki/"}},
		{"k8s-community", "k8s-dev-questions.jsonl", "testdata/k8s-questions.jsonl", "testdata/k8s-final-questions.jsonl", []string{"https://github.com/kubernetes/community/blob/master/", "https://github.com/kubernetes/community/tree/master/", "https://git.k8s.io/community/"}},
	} {
		t.Run(c.corpus, func(t *testing.T) {
			dir := filepath.Join(root, c.corpus)
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			ctx := context.Background()
			s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: c.corpus, When: when})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			defer retrieve.CloseIndexes()
			start := time.Now()
			if _, err := ingest.Import(ctx, s, dir, ingest.ImportOptions{ApprovedBy: "eval", When: when, SitePrefixes: c.prefixes}); err != nil {
				t.Fatal(err)
			}
			t.Logf("import %v", time.Since(start))
			more := []string{strings.Replace(c.own, "-questions", "-more-questions-a", 1), strings.Replace(c.own, "-questions", "-more-questions-b", 1)}
			retrieve.LogCorpusEval(t, s, append([]string{filepath.Join(root, c.dev), c.own, c.final}, more...), when)
		})
	}
}
