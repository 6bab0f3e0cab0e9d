//go:build evalcorpora

package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// evalWhen is the clock of every corpus evaluation.
var evalWhen = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// evalCorpus is a corpus of spacegen.Corpora with its question sets
// (docs/retrieval.md, "Question sets and protocol") and the site prefixes
// its absolute links use, which `pt import --site-prefix` rewrites.
type evalCorpus struct {
	name     string
	dev      string // in spacegen.Corpora()
	own      string // in testdata; the other sets sit beside it (set)
	prefixes []string
}

var evalCorpora = []evalCorpus{
	{"gowiki", "gowiki-dev-questions.jsonl", "testdata/gowiki-questions.jsonl",
		[]string{"/wiki/", "https://go.dev/wiki/", "https://golang.org/wiki/", "https://github.com/golang/go/wiki/"}},
	{"k8s-community", "k8s-dev-questions.jsonl", "testdata/k8s-questions.jsonl",
		[]string{"https://github.com/kubernetes/community/blob/master/", "https://github.com/kubernetes/community/tree/master/", "https://git.k8s.io/community/"}},
}

// devFile is the corpus's development questions.
func (c evalCorpus) devFile() string { return filepath.Join(spacegen.Corpora(), c.dev) }

// set is the question file beside the own set named name
// ("final-questions", "more-questions-a", "more-questions-b").
func (c evalCorpus) set(name string) string {
	return strings.Replace(c.own, "questions", name, 1)
}

// sets are every question file of the corpus: dev, own, final and more.
func (c evalCorpus) sets() []string {
	return []string{c.devFile(), c.own, c.set("final-questions"), c.set("more-questions-a"), c.set("more-questions-b")}
}

// importCorpus imports the corpus into a new space, as `pt import` with its
// site prefixes does, skipping the test when the corpus is not there.
func importCorpus(t *testing.T, c evalCorpus) *wiki.Space {
	t.Helper()
	dir := filepath.Join(spacegen.Corpora(), c.name)
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	s, _, err := wiki.Init(context.Background(), t.TempDir(), wiki.InitOptions{Name: c.name, When: evalWhen, Clock: wiki.SteppingClock(evalWhen, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	importInto(t, s, c)
	return s
}

// importInto imports the corpus into s, as one more batch.
func importInto(t *testing.T, s *wiki.Space, c evalCorpus) {
	t.Helper()
	start := time.Now()
	dir := filepath.Join(spacegen.Corpora(), c.name)
	if _, err := ingest.Import(context.Background(), s, dir, ingest.ImportOptions{ApprovedBy: "eval", When: evalWhen, SitePrefixes: c.prefixes}); err != nil {
		t.Fatal(err)
	}
	t.Logf("import %s %v", c.name, time.Since(start))
}

// loadQuestions reads a question file.
func loadQuestions(t *testing.T, p string) []retrieve.Question {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := retrieve.ReadQuestions(f)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// addGenerated adds n generated pages (spacegen, in the vocabulary of a team's
// engineering notes) to s, as one more batch.
func addGenerated(t *testing.T, s *wiki.Space, n int) {
	t.Helper()
	if n <= 0 {
		return
	}
	start := time.Now()
	if err := spacegen.Fill(context.Background(), s, spacegen.Options{Pages: n, Seed: 7, When: evalWhen}); err != nil {
		t.Fatal(err)
	}
	t.Logf("added %d generated pages in %v", n, time.Since(start))
}

// envPages reads a page count from the environment variable name, def
// when it is unset.
func envPages(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a page count", name, v)
	}
	return n
}
