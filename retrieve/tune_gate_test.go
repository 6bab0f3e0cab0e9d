//go:build evalcorpora

package retrieve_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/retrieve"
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
	ctx := context.Background()
	variants := strings.Split(os.Getenv("PT_TUNE_VARIANTS"), ",")
	if variants[0] == "" {
		variants = []string{"default"}
	}
	defer retrieve.CloseIndexes()
	for _, c := range evalCorpora {
		s := importCorpus(t, c)
		// PT_DUMP_PAD: the corpus among that many generated pages
		// (TestImportedCorpusAtScale).
		addGenerated(t, s, envPages(t, "PT_DUMP_PAD", 0))
		if os.Getenv("PT_DUMP_TOGETHER") != "" {
			// Every corpus in one space (TestImportedCorporaTogether).
			for _, o := range evalCorpora {
				if o.name != c.name {
					importInto(t, s, o)
				}
			}
		}
		// dev, own and the sets written later, with in-domain
		// unanswerable questions.
		files := []string{c.devFile(), c.own, c.set("more-questions-a"), c.set("more-questions-b")}
		if os.Getenv("PT_DUMP_FINAL") != "" {
			// Only to report before/after on the final sets, never to tune.
			files = append(files, c.set("final-questions"))
		}
		for _, qf := range files {
			qs := loadQuestions(t, qf)
			for _, v := range variants {
				feats := map[string]map[string]any{}
				unhook := retrieve.SetGateHook(func(q string, m map[string]any) { feats[q] = m })
				restore := retrieve.WithTune(v, os.Getenv("PT_DUMP_SUFF") == "")
				// A variant may change what is indexed (folder words,
				// fields): every variant gets an index built under it.
				if err := retrieve.Rebuild(ctx, s); err != nil {
					t.Fatal(err)
				}
				rep, err := retrieve.Eval(ctx, s, qs, retrieve.EvalOptions{Now: evalWhen})
				restore()
				unhook()
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range rep.Results {
					enc.Encode(map[string]any{"variant": v, "corpus": c.name, "set": filepath.Base(qf), "id": r.ID, "kind": r.Kind,
						"gold": r.Gold, "rank": r.Rank, "bm25": r.BM25Rank, "cov": r.Coverage, "suff": r.Sufficient, "top": r.Top, "f": feats[qs[i].Question]})
				}
			}
		}
	}
}
