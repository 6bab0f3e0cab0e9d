package ingest_test

import (
	"context"
	"encoding/json"
	"github.com/ptwiki/pt/wiki/spacegen"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func readPairs(t testing.TB, p string) []ingest.QuestionPair {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pairs, err := ingest.ReadPairs(f)
	if err != nil {
		t.Fatal(err)
	}
	return pairs
}

func logReport(t testing.TB, rep *ingest.CompoundingReport) {
	t.Helper()
	for _, r := range rep.Results {
		b, _ := json.Marshal(r)
		t.Logf("  %s", b)
	}
	t.Logf("pairs %d filed %d top3 %d (%.2f) tokens cold %.0f warm %.0f change %+.1f%% sufficient cold %d warm %d",
		rep.Pairs, rep.Filed, rep.Top3, rep.Top3Rate, rep.MeanColdTokens, rep.MeanWarmTokens, 100*rep.TokenChange, rep.SufficientCold, rep.SufficientWarm)
}

// TestCompoundingDemo measures compounding on the demo knowledge: every
// pair's first answer adds to its sources, so it is filed, and the second
// question must find it.
func TestCompoundingDemo(t *testing.T) {
	s, _ := fbSpace(t, "")
	pairs := readPairs(t, "testdata/compounding/demo-pairs.jsonl")
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	rep, err := ingest.Compounding(context.Background(), s, e, pairs)
	if err != nil {
		t.Fatal(err)
	}
	logReport(t, rep)
	if rep.Filed != len(pairs) {
		t.Errorf("filed %d of %d first answers", rep.Filed, len(pairs))
	}
	// Whenever the follow-up is answered at all, the filed answer is among
	// the top 3 pages of the answer: that is compounding.
	answered := 0
	for _, r := range rep.Results {
		if r.WarmSufficient {
			answered++
			if r.Rank < 1 || r.Rank > 3 {
				t.Errorf("pair %s: follow-up answered without the synthesis in the top 3 (rank %d)", r.ID, r.Rank)
			}
		}
	}
	if answered < len(pairs)/2 {
		t.Errorf("only %d of %d follow-ups answered after filing", answered, len(pairs))
	}
}

// TestCompoundingGowiki measures compounding on the Go wiki corpus; like
// the retrieval evaluation it runs only with PT_EVAL=1.
func TestCompoundingGowiki(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("set PT_EVAL=1 to measure compounding on the corpora")
	}
	dir := filepath.Join(fbCorpora(), "gowiki")
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	s, _ := fbSpace(t, "")
	ctx := context.Background()
	_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindImport, Title: "gowiki", ApprovedBy: "dana", When: fbWhen}, func(ctx context.Context, tx *wiki.Tx) error {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			_, err = tx.PutFile(ctx, "sources/"+filepath.ToSlash(rel), data, wiki.RoleSource)
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	rep, err := ingest.Compounding(ctx, s, e, readPairs(t, "testdata/compounding/gowiki-pairs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	logReport(t, rep)
}

func fbCorpora() string {
	return spacegen.Corpora()
}

// TestScratchCopy: an evaluation's copy holds the same pages and leaves the
// original alone.
func TestScratchCopy(t *testing.T) {
	ctx := context.Background()
	s, dir := fbSpace(t, "")
	before := fbState(t, dir)
	c, err := ingest.ScratchCopy(ctx, s, filepath.Join(t.TempDir(), "copy"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ch, _ := c.Head(ctx)
	sh, _ := s.Head(ctx)
	want, _ := s.Pages(ctx, sh)
	got, _ := c.Pages(ctx, ch)
	blobs := map[string]string{}
	for _, e := range got {
		blobs[e.Path] = e.Blob
	}
	for _, e := range want {
		if e.Path != wiki.LogPath && blobs[e.Path] != e.Blob {
			t.Errorf("%s differs in the copy", e.Path)
		}
	}
	if fbState(t, dir) != before {
		t.Error("the original changed")
	}
}
