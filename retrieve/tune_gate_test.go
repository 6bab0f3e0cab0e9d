//go:build evalcorpora

package retrieve_test

import (
	"context"
	"encoding/json"
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

// TestDumpEvidence writes, for each ranking variant in PT_TUNE_VARIANTS
// (comma-separated names of retrieve.TuneVariants, default "default") and
// each development and own question of both imported corpora, one JSON line
// to PT_DUMP: the gold, pt's rank with sufficiency off, BM25's rank and the
// sufficiency evidence. The gate and the ranking are tuned on these lines;
// the final question sets are dumped only with PT_DUMP_FINAL, to report
// figures before and after, never to tune. It asserts nothing.
func TestDumpEvidence(t *testing.T) {
	out := os.Getenv("PT_DUMP")
	if out == "" {
		t.Skip("set PT_DUMP=FILE")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	root := spacegen.Corpora()
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	ctx := context.Background()
	variants := strings.Split(os.Getenv("PT_TUNE_VARIANTS"), ",")
	if variants[0] == "" {
		variants = []string{"default"}
	}
	defer retrieve.CloseIndexes()
	for _, c := range []struct {
		corpus, dev, own string
		prefixes         []string // as TestImportedCorpusEval imports them
	}{
		{"gowiki", "gowiki-dev-questions.jsonl", "testdata/gowiki-questions.jsonl", []string{"/wiki/", "https://go.dev/wiki/", "https://golang.org/wiki/", "https://github.com/golang/go/wiki/"}},
		{"k8s-community", "k8s-dev-questions.jsonl", "testdata/k8s-questions.jsonl", []string{"https://github.com/kubernetes/community/blob/master/", "https://github.com/kubernetes/community/tree/master/", "https://git.k8s.io/community/"}},
	} {
		s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: c.corpus, When: when})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := ingest.Import(ctx, s, filepath.Join(root, c.corpus), ingest.ImportOptions{ApprovedBy: "eval", When: when, SitePrefixes: c.prefixes}); err != nil {
			t.Fatal(err)
		}
		files := []string{filepath.Join(root, c.dev), c.own}
		// The sets written later, with in-domain unanswerable questions.
		for _, part := range []string{"a", "b"} {
			files = append(files, strings.Replace(c.own, "-questions", "-more-questions-"+part, 1))
		}
		if os.Getenv("PT_DUMP_FINAL") != "" {
			// Only to report before/after on the final sets, never to tune.
			files = append(files, strings.Replace(c.own, "-questions", "-final-questions", 1))
		}
		for _, qf := range files {
			qr, err := os.Open(qf)
			if err != nil {
				t.Fatal(err)
			}
			qs, err := retrieve.ReadQuestions(qr)
			qr.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range variants {
				feats := map[string]map[string]any{}
				unhook := retrieve.SetGateHook(func(q string, m map[string]any) { feats[q] = m })
				restore := retrieve.WithTune(v, os.Getenv("PT_DUMP_SUFF") == "")
				// A variant may change what is indexed (folder words,
				// fields): every variant gets an index built under it.
				if err := retrieve.Rebuild(ctx, s); err != nil {
					t.Fatal(err)
				}
				rep, err := retrieve.Eval(ctx, s, qs, retrieve.EvalOptions{Now: when})
				restore()
				unhook()
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range rep.Results {
					enc.Encode(map[string]any{"variant": v, "corpus": c.corpus, "set": filepath.Base(qf), "id": r.ID, "kind": r.Kind,
						"gold": r.Gold, "rank": r.Rank, "bm25": r.BM25Rank, "cov": r.Coverage, "suff": r.Sufficient, "top": r.Top, "f": feats[qs[i].Question]})
				}
			}
		}
	}
}
