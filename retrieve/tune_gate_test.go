//go:build evalcorpora

package retrieve_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptwiki/pt/retrieve"
)

// TestDumpEvidence writes, for each ranking variant in PT_TUNE_VARIANTS
// (comma-separated names of retrieve.TuneVariants(), default "default") and
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
				e := retrieve.Open(s, retrieve.Options{Ranking: retrieve.TuneRanking(v, os.Getenv("PT_DUMP_SUFF") == "")})
				retrieve.SetGateHook(e, func(q string, m map[string]any) { feats[q] = m })
				rep, err := e.Eval(ctx, qs, retrieve.EvalOptions{Now: evalWhen})
				e.Close()
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

// TestGateSeparation reads a dump made with the gate on (PT_DUMP_SUFF=1)
// and logs, for each number of the sufficiency evidence, how well it tells
// the unanswerable questions the gate let through from the answerable ones
// it let through: the probability that an answerable question has the
// higher value (ties count half; 0.5 is no separation at all). A new rule
// is worth trying only on a feature far from 0.5. It asserts nothing.
func TestGateSeparation(t *testing.T) {
	in := os.Getenv("PT_SEPARATION")
	if in == "" {
		t.Skip("set PT_SEPARATION=FILE, a dump made with PT_DUMP_SUFF=1")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var through, answerable []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Gold []string       `json:"gold"`
			Suff bool           `json:"suff"`
			Cov  float64        `json:"cov"`
			F    map[string]any `json:"f"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Suff || r.F == nil {
			continue
		}
		r.F["coverage"] = r.Cov
		if len(r.Gold) == 0 {
			through = append(through, r.F)
		} else {
			answerable = append(answerable, r.F)
		}
	}
	t.Logf("answered: %d unanswerable, %d answerable", len(through), len(answerable))
	value := func(m map[string]any, k string) (float64, bool) {
		switch v := m[k].(type) {
		case float64:
			return v, true
		case bool:
			if v {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	var keys []string
	for k := range answerable[0] {
		if _, ok := value(answerable[0], k); ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		var s, n float64
		for _, u := range through {
			x, ok := value(u, k)
			if !ok {
				continue
			}
			for _, a := range answerable {
				y, ok := value(a, k)
				if !ok {
					continue
				}
				n++
				switch {
				case y > x:
					s++
				case y == x:
					s += 0.5
				}
			}
		}
		if n > 0 {
			t.Logf("%-9s %.2f", k, s/n)
		}
	}
}
