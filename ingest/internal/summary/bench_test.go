package summary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/wiki/spacegen"
)

func corpus(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(spacegen.Corpora(), name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("corpus %s not available: %v", name, err)
	}
	return dir
}

// BenchmarkSummarizeCorpora summarises every Markdown file of the shared
// corpora (gowiki and k8s-community, 1,128 files) once per iteration.
//
//	go test ./ingest/internal/summary/ -run '^$' -bench SummarizeCorpora -benchtime 5x
func BenchmarkSummarizeCorpora(b *testing.B) {
	var bodies [][]byte
	for _, name := range []string{"gowiki", "k8s-community"} {
		err := filepath.WalkDir(corpus(b, name), func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			bodies = append(bodies, data)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		for _, body := range bodies {
			Summarize("A page of the corpus", body, Options{})
		}
	}
	b.ReportMetric(float64(len(bodies)), "files/op")
}
