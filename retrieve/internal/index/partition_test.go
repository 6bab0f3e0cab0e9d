package index

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/blugelabs/bluge"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// corpusDocs is a small generated corpus (pages and their sections) with
// the unit types renamed by rename, so that the same text can be indexed in
// the partitioned fields or in the shared ones.
func corpusDocs(pages int, rename func(string) string) []Doc {
	c := newCorpus(7)
	var docs []Doc
	for i := range pages {
		for _, d := range c.page(i, "r1") {
			d.Type = rename(d.Type)
			docs = append(docs, d)
		}
	}
	return docs
}

type scored struct {
	ID    string
	Score float64
}

func scores(hits []Hit) []scored {
	var out []scored
	for _, h := range hits {
		out = append(out, scored{h.ID, h.Score})
	}
	return out
}

// Partitioned fields must not change a score: a search restricted to pages
// over "page.body" scores as a search of every unit over a "body" shared
// with sections, keeping the pages, both when the text query is exact and
// when it is split by frequency. Scores are compared to 1e-12: a clause whose
// term no page holds has no searcher in the partitioned index, which can
// change the order in which bluge's disjunction adds the clauses' scores,
// and so the last bit of the sum.
//
// The reference is the unfiltered search, not a type-filtered one: with the
// split query, bluge's conjunction with a type filter advances the text
// searcher, and its boolean searcher then drops the score of the common
// clauses on some documents (7.11 instead of 7.36 on one page here), which
// the partitioned search, needing no type filter, no longer does.
func TestPartitionsScoreAsOneField(t *testing.T) {
	ctx := context.Background()
	open := func(docs []Doc) *Index {
		ix, err := OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		apply(t, ix, "c1", docs)
		return ix
	}
	parted := open(corpusDocs(300, func(s string) string { return s }))
	shared := open(corpusDocs(300, func(s string) string { return "shared-" + s }))
	if partitionOf("page") != "page" || partitionOf("shared-page") != "" {
		t.Fatal("the test needs page in a partition and shared-page in the shared fields")
	}
	c := newCorpus(8)
	for _, split := range []bool{false, true} {
		below := uint64(1 << 40)
		if split {
			below = 0
		}
		parted.exactPostings, shared.exactPostings = below, below
		for i := range 15 {
			q := c.question()
			var fields map[string]float64 // every field, boosted
			if i%3 != 0 {
				fields = map[string]float64{"title": 1, "body": 1}
			}
			all := hitsFor(t, shared, Query{Text: q, Limit: 5000, Fields: fields, OmitBody: true})
			for _, typ := range []string{"page", "section", ""} {
				pq := Query{Text: q, Limit: 25, Fields: fields, OmitBody: true}
				if typ != "" {
					pq.Types = []string{typ}
				}
				var want []scored
				for _, h := range all {
					if len(want) < pq.Limit && (typ == "" || h.Type == "shared-"+typ) {
						want = append(want, scored{h.ID, h.Score})
					}
				}
				got := scores(hitsFor(t, parted, pq))
				if len(want) == 0 {
					t.Fatalf("%q: no hits, the comparison says nothing", q)
				}
				if diff := cmp.Diff(want, got, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
					t.Errorf("split %v, type %q, %q (-shared +partitioned):\n%s", split, typ, q, diff)
				}
			}
		}
	}
	terms := Terms(c.question())
	ps, err := parted.Stats(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := shared.Stats(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	// Pages counts the page partition, which the shared index lacks.
	if diff := cmp.Diff(ss, ps, cmpopts.IgnoreFields(TermStats{}, "Pages")); diff != "" || ps.N == 0 {
		t.Errorf("stats (-shared +partitioned):\n%s", diff)
	}
	if ps.Pages != 300 || ss.Pages != 0 {
		t.Errorf("Pages: partitioned %d, shared %d; want 300 and 0", ps.Pages, ss.Pages)
	}
}

// The path filter reads the documents of each path once per snapshot; a
// later Apply must be seen at once.
func TestPathsFilterFollowsApply(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		doc := func(p, anchor, body string) Doc {
			return Doc{ID: p + "#" + anchor, Path: p, Type: "section", Title: "Backups", Body: body, Status: "active"}
		}
		apply(t, ix, "c1", []Doc{doc("a.md", "one", "backup nightly"), doc("b.md", "one", "backup weekly"), doc("c.md", "one", "backup never")})
		q := Query{Text: "backup", Types: []string{"section"}, Paths: []string{"a.md", "c.md"}, Limit: 10}
		if diff := cmp.Diff([]string{"a.md#one", "c.md#one"}, sortedIDs(hitsFor(t, ix, q))); diff != "" {
			t.Errorf("before (-want +got):\n%s", diff)
		}
		apply(t, ix, "c2", []Doc{doc("a.md", "two", "backup hourly"), doc("c.md", "three", "backup daily")}, "b.md")
		if diff := cmp.Diff([]string{"a.md#two", "c.md#three"}, sortedIDs(hitsFor(t, ix, q))); diff != "" {
			t.Errorf("after apply (-want +got):\n%s", diff)
		}
		// The filter selects exactly what the unfiltered search finds on
		// those paths, with the same scores.
		all := hitsFor(t, ix, Query{Text: "backup", Types: []string{"section"}, Limit: 10})
		var want []scored
		for _, h := range all {
			if h.Path == "a.md" || h.Path == "c.md" {
				want = append(want, scored{h.ID, h.Score})
			}
		}
		if diff := cmp.Diff(want, scores(hitsFor(t, ix, q))); diff != "" {
			t.Errorf("filtered against unfiltered (-want +got):\n%s", diff)
		}
	})
}

func sortedIDs(hits []Hit) []string {
	out := ids(hits)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// topScores keeps the same matches, in the same order, as bluge's TopN
// search sorted by score, ties included.
func TestTopScoresMatchesBluge(t *testing.T) {
	ix, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	docs := corpusDocs(200, func(s string) string { return s })
	// Duplicated text makes ties at the cut.
	for i := range 30 {
		docs = append(docs, Doc{ID: fmt.Sprintf("dup%02d", i), Path: fmt.Sprintf("dup%02d.md", i), Type: "page", Body: strings.Repeat("kaloser mitan ", 3)})
	}
	apply(t, ix, "c1", docs)
	r, release, err := ix.reader()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	type match struct {
		Number uint64
		Score  float64
	}
	run := func(req bluge.SearchRequest) []match {
		it, err := r.Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var out []match
		for {
			m, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if m == nil {
				return out
			}
			out = append(out, match{m.Number, m.Score})
		}
	}
	c := newCorpus(9)
	qs := []string{"kaloser mitan", "kaloser"}
	for range 10 {
		qs = append(qs, c.question())
	}
	for _, text := range qs {
		for _, limit := range []int{1, 5, 40} {
			bq, err := buildQuery(Query{Text: text, Types: []string{"page"}}, &ix.snaps, ix.exactPostings)
			if err != nil || bq == nil {
				t.Fatalf("%q: %v", text, err)
			}
			want := run(bluge.NewTopNSearch(limit, bq))
			got := run(newTopScores(limit, bq))
			if len(want) == 0 {
				t.Fatalf("%q: no matches", text)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%q, limit %d (-bluge +topScores):\n%s", text, limit, diff)
			}
		}
	}
}
