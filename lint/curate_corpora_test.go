package lint_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// curateWhen is the decision time of the corpus evaluations: the reference
// date of the planted faults (testdata/curation), never the wall clock.
var curateWhen = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// corpusFiles reads every Markdown file under dir, then the overlay's
// files over them (overlay may be ""), keyed by their path relative to
// dir.
func corpusFiles(t testing.TB, dir, overlay string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, d := range []string{dir, overlay} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(d); err != nil {
			continue
		}
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			rel, _ := filepath.Rel(d, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(rel)] = data
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// filesSpace commits files under prefix of a fresh space in one batch.
func filesSpace(t testing.TB, files map[string][]byte, prefix string) *wiki.Space {
	t.Helper()
	s, _, err := wiki.Init(context.Background(), t.TempDir(), wiki.InitOptions{Name: "corpus", When: curateWhen, Clock: wiki.SteppingClock(curateWhen, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	_, err = s.Apply(context.Background(), wiki.Batch{Kind: "import", Title: "corpus", ApprovedBy: "dana", When: curateWhen},
		func(ctx context.Context, tx *wiki.Tx) error {
			for p, c := range files {
				if _, err := tx.PutFile(ctx, prefix+p, c, wiki.RolePage); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCurateCorporaDump writes the curation findings of a corpus (with an
// overlay) as JSON lines, for reading by hand: PT_CURATE_DUMP=out.jsonl
// PT_CURATE_CORPUS=gowiki [PT_CURATE_OVERLAY=dir].
func TestCurateCorporaDump(t *testing.T) {
	out := os.Getenv("PT_CURATE_DUMP")
	if out == "" {
		t.Skip("set PT_CURATE_DUMP to dump a corpus's curation findings")
	}
	corpus := os.Getenv("PT_CURATE_CORPUS")
	dir := filepath.Join(spacegen.Corpora(), corpus)
	files := corpusFiles(t, dir, os.Getenv("PT_CURATE_OVERLAY"))
	s := filesSpace(t, files, "sources/")
	start := time.Now()
	rep, err := lint.Curate(context.Background(), s, lint.CurateOptions{Now: curateWhen, DryRun: true, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages in %s", rep.Pages, time.Since(start))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	counts := map[string]int{}
	for _, x := range rep.Open() {
		counts[x.Check]++
		enc.Encode(x)
	}
	t.Logf("%v", counts)
}
