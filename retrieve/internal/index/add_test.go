package index

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sync/errgroup"
)

// chunks splits docs into runs of at least n documents that never split
// a path, as the retrieve package hands them over.
func chunks(docs []Doc, n int) [][]Doc {
	var out [][]Doc
	start := 0
	for i := range docs {
		if i+1 == len(docs) || i+1-start >= n && docs[i+1].Path != docs[i].Path {
			out = append(out, docs[start:i+1])
			start = i + 1
		}
	}
	return out
}

// addConcurrently fills ix with docs by Adds of chunk documents each, at
// most workers at once, then records commit with an Apply of rest.
func addConcurrently(t *testing.T, ix *Index, commit string, docs []Doc, chunk, workers int, rest []Doc) {
	t.Helper()
	ctx := context.Background()
	var g errgroup.Group
	g.SetLimit(workers)
	for _, part := range chunks(docs, chunk) {
		g.Go(func() error { return ix.Add(ctx, part) })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	apply(t, ix, commit, rest)
}

// A first build by concurrent Adds holds what one by Apply holds: the same
// documents, statistics and hits, scores to the last bit, and searches and
// later Applies behave alike.
func TestAddBuildsWhatApplyBuilds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	docs := corpusDocs(120, func(s string) string { return s })
	last := corpusDocs(125, func(s string) string { return s })[len(docs):]
	backends(t, func(t *testing.T, bulk *Index) {
		serial, err := OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		defer serial.Close()
		apply(t, serial, "c1", append(append([]Doc(nil), docs...), last...))
		if empty, err := bulk.Empty(); err != nil || !empty {
			t.Fatalf("new index: Empty = %v, %v", empty, err)
		}
		addConcurrently(t, bulk, "c1", docs, 37, 4, last)
		if empty, _ := bulk.Empty(); empty {
			t.Error("Empty after a build")
		}
		if got, want := count(t, bulk), count(t, serial); got != want {
			t.Errorf("Count = %d, serial build %d", got, want)
		}
		if bulk.Commit() != "c1" {
			t.Errorf("Commit = %q", bulk.Commit())
		}
		check := func(step string) {
			t.Helper()
			for _, q := range []string{"how do I " + docs[3].Title, docs[40].Heading, docs[77].Body[:60]} {
				for _, typ := range []string{"page", "section"} {
					query := Query{Text: q, Types: []string{typ}, Limit: 20}
					if diff := cmp.Diff(hitsFor(t, serial, query), hitsFor(t, bulk, query)); diff != "" {
						t.Errorf("%s: %s %q (-serial +bulk):\n%s", step, typ, q, diff)
					}
				}
				want, err := serial.Stats(ctx, Terms(q))
				if err != nil {
					t.Fatal(err)
				}
				got, err := bulk.Stats(ctx, Terms(q))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: stats %q (-serial +bulk):\n%s", step, q, diff)
				}
			}
		}
		check("built")
		// An update after the build replaces and deletes as it would.
		up := corpusDocs(3, func(s string) string { return s })
		for i := range up {
			up[i].Body += " rewritten"
		}
		for _, ix := range []*Index{serial, bulk} {
			apply(t, ix, "c2", up, docs[len(docs)-1].Path)
		}
		check("updated")
		if err := bulk.Add(ctx, last[:1]); !errors.Is(err, ErrApplied) {
			t.Errorf("Add after Apply: %v, want ErrApplied", err)
		}
	})
}

// A first build killed between its Adds and its Apply leaves documents
// without a commit: Open reports the index corrupt, so that it is deleted
// and rebuilt, and the rebuilt index is whole.
func TestUnfinishedBuildIsCorrupt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	docs := corpusDocs(20, func(s string) string { return s })
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := chunks(docs, 40)[0]
	if err := ix.Add(ctx, first); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open after an unfinished build: %v, want ErrCorrupt", err)
	}
	// A reader beside the builder sees documents and no commit, as it
	// does during a build, and waits for the commit.
	snap, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Commit() != "" || count(t, snap) != len(first) {
		t.Errorf("snapshot of an unfinished build: commit %q, %d docs", snap.Commit(), count(t, snap))
	}
	snap.Close()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	addConcurrently(t, ix, "c1", docs, 30, 2, nil)
	if n := count(t, ix); n != len(docs) {
		t.Errorf("rebuilt: %d docs, want %d", n, len(docs))
	}
}

// A build that failed in a process that keeps the index (a server) leaves
// it not Empty; the Applies that follow count what the Adds inserted, so
// the totals stay those of the live documents.
func TestApplyAfterFailedBuildCountsAdds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	docs := corpusDocs(30, func(s string) string { return s })
	ix, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	parts := chunks(docs, 50)
	if err := ix.Add(ctx, parts[0]); err != nil {
		t.Fatal(err)
	}
	if empty, _ := ix.Empty(); empty {
		t.Fatal("Empty after an Add")
	}
	// The next update replays every page through Apply.
	for _, part := range chunks(docs, 60) {
		apply(t, ix, "", part)
	}
	apply(t, ix, "c1", nil)
	serial, err := OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer serial.Close()
	apply(t, serial, "c1", docs)
	for _, q := range []string{docs[5].Title, docs[61].Body[:50]} {
		want, _ := serial.Stats(ctx, Terms(q))
		got, err := ix.Stats(ctx, Terms(q))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("stats %q (-serial +replayed):\n%s", q, diff)
		}
		query := Query{Text: q, Types: []string{"section"}, Limit: 10}
		if diff := cmp.Diff(hitsFor(t, serial, query), hitsFor(t, ix, query)); diff != "" {
			t.Errorf("%q (-serial +replayed):\n%s", q, diff)
		}
	}
}
