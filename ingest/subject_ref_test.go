package ingest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSubjectTopicsAsReference checks subjectTopics against a plain
// rendering of its rule (refSubjectTopics: every round counts every word
// again) on corpora drawn at random from a small vocabulary, so that
// counts, weights and names often tie.
func TestSubjectTopicsAsReference(t *testing.T) {
	vocab := strings.Fields("ledger ledgers payment payments refund refunds queue queues shard shards replica cache caches rotate rotation kafka jetstream consumer consumers 2026 weekly notes index the of and")
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		words := func(n int) string {
			ws := make([]string, n)
			for i := range ws {
				ws[i] = vocab[r.IntN(len(vocab))]
				if r.IntN(4) == 0 {
					ws[i] = strings.ToUpper(ws[i][:1]) + ws[i][1:]
				}
			}
			return strings.Join(ws, " ")
		}
		n := 1 + r.IntN(60)
		mk := func() []*corpusDoc {
			r = rand.New(rand.NewPCG(seed, 7))
			docs := make([]*corpusDoc, n)
			for i := range docs {
				var body strings.Builder
				for range r.IntN(4) {
					fmt.Fprintf(&body, "## %s\n\n", words(1+r.IntN(3)))
					fmt.Fprintf(&body, "%s.\n\n", words(r.IntN(30)))
				}
				docs[i] = &corpusDoc{rel: fmt.Sprint(i), title: words(1 + r.IntN(4)), body: []byte(body.String())}
			}
			return docs
		}
		got, want := mk(), mk()
		subjectTopics(got)
		refSubjectTopics(want)
		for i := range got {
			if d := cmp.Diff(want[i].topics, got[i].topics); d != "" {
				t.Errorf("seed %d, doc %d %q: topics (-reference +got):\n%s", seed, i, got[i].title, d)
			}
		}
	}
}

// refSubjectTopics is subjectTopics as first written: each document's terms
// in maps of strings, and a greedy choice that counts every candidate word
// again in every round.
func refSubjectTopics(docs []*corpusDoc) {
	type terms struct {
		weight map[string]float64
		at     map[string]int
	}
	all := make([]terms, len(docs))
	surfaces := map[string]map[string]int{}
	for i, d := range docs {
		st := terms{weight: map[string]float64{}, at: map[string]int{}}
		add := func(s string, w float64) {
			seen := map[string]bool{}
			for _, sw := range subjectWords(s) {
				if seen[sw.stem] {
					continue
				}
				seen[sw.stem] = true
				st.weight[sw.stem] += w
				if surfaces[sw.stem] == nil {
					surfaces[sw.stem] = map[string]int{}
				}
				surfaces[sw.stem][sw.surface]++
				if _, ok := st.at[sw.stem]; !ok {
					st.at[sw.stem] = len(st.at)
				}
			}
		}
		add(d.names(), titleWeight)
		add(strings.Join(headingsOf(d, d.body), "\n"), headingWeight)
		tf := map[string]int{}
		for _, sw := range subjectWords(string(d.body)) {
			tf[sw.stem]++
		}
		for w, n := range tf {
			st.weight[w] += min(bodyWeight, float64(n)/bodyRepeat)
		}
		all[i] = st
	}
	named := func(st terms, w string) bool { _, ok := st.at[w]; return ok }
	members := map[string][]int{}
	for i, st := range all {
		for w, wt := range st.weight {
			if wt >= memberWeight && named(st, w) {
				members[w] = append(members[w], i)
			}
		}
	}
	for i, st := range all {
		for w, wt := range st.weight {
			if wt >= memberWeight && !named(st, w) && len(members[w]) > 0 {
				members[w] = append(members[w], i)
			}
		}
	}
	surfaceOf := func(forms map[string]int) string {
		best := ""
		for f, n := range forms {
			if best == "" || n > forms[best] || n == forms[best] && (len(f) < len(best) || len(f) == len(best) && f < best) {
				best = f
			}
		}
		return best
	}
	broad := len(docs) + 1
	if len(docs) >= 4 {
		broad = max(3, len(docs)*3/5+1)
	}
	left := map[int]bool{}
	for i := range docs {
		left[i] = true
	}
	for len(left) > 0 {
		best, bestN, bestW := "", 1, 0.0
		for w, ms := range members {
			if len(ms) >= broad {
				continue
			}
			n, wt := 0, 0.0
			for _, i := range ms {
				if left[i] {
					n++
					wt += all[i].weight[w]
				}
			}
			if n > bestN || n == bestN && n > 1 && (wt > bestW || wt == bestW && w < best) {
				best, bestN, bestW = w, n, wt
			}
		}
		if best == "" {
			break
		}
		for _, i := range members[best] {
			if left[i] {
				docs[i].topics = []string{surfaceOf(surfaces[best])}
				delete(left, i)
			}
		}
	}
	for i := range left {
		st := all[i]
		var ws []string
		for w := range st.at {
			if len(members[w]) < broad {
				ws = append(ws, w)
			}
		}
		sort.Slice(ws, func(a, b int) bool {
			if st.weight[ws[a]] != st.weight[ws[b]] {
				return st.weight[ws[a]] > st.weight[ws[b]]
			}
			return st.at[ws[a]] < st.at[ws[b]]
		})
		if len(ws) > 0 {
			docs[i].topics = []string{surfaceOf(surfaces[ws[0]])}
		}
	}
}
