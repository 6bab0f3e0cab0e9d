package ingest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// corpus returns the path of a shared evaluation corpus, skipping the
// benchmark when it is not on this machine.
func corpus(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(spacegen.Corpora(), name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("corpus %s not available: %v", name, err)
	}
	return dir
}

// BenchmarkImport imports a whole corpus into a fresh space per iteration
// and reports pages per second: the shared corpora when they are on this
// machine, and a generated corpus of 1,000 Markdown files.
//
//	go test ./ingest/ -run '^$' -bench Import -benchtime 3x
func BenchmarkImport(b *testing.B) {
	for _, name := range []string{"generated", "gowiki", "k8s-community"} {
		b.Run(name, func(b *testing.B) {
			var dir string
			if name == "generated" {
				dir = genCorpus(b, 1000)
			} else {
				dir = corpus(b, name)
			}
			ctx := context.Background()
			pages := 0
			for b.Loop() {
				b.StopTimer()
				s, _ := newSpace(b, "")
				b.StartTimer()
				res, err := ingest.Import(ctx, s, dir, ingest.ImportOptions{ApprovedBy: "dana", Author: dana, SitePrefixes: []string{"/wiki/", "https://go.dev/wiki/"}})
				if err != nil {
					b.Fatal(err)
				}
				pages = res.Imported
			}
			b.ReportMetric(float64(pages)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// genCorpus writes n Markdown files shaped like a team's documentation
// (folders of 10 to 40 files, a README per folder, headings, prose, lists,
// links between files, decisions and action items) into a temporary
// directory.
func genCorpus(b *testing.B, n int) string {
	b.Helper()
	words := strings.Fields(`service deploy cluster index query latency storage cache release incident
		rollback database schema migration replica shard leader election timeout retry queue worker
		scheduler batch commit branch review approval owner oncall alert metric dashboard trace budget
		error region failover backup restore snapshot throughput capacity quota token session proxy
		gateway ingress certificate rotation secret policy audit tenant billing feature flag rollout
		canary staging pipeline build test coverage lint design proposal meeting planning estimate risk
		upgrade version api endpoint client server protocol config memory disk network connection pool
		lock profile benchmark regression search ranking document page summary topic the a of and to
		in for is on that with we it be this as by are from because however instead should must`)
	r := rand.New(rand.NewPCG(11, 13))
	sentence := func() string {
		ws := make([]string, 6+r.IntN(16))
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		out := strings.Join(ws, " ")
		return strings.ToUpper(out[:1]) + out[1:] + "."
	}
	title := func() string {
		out := words[r.IntN(70)] + " " + words[r.IntN(70)]
		return strings.ToUpper(out[:1]) + out[1:]
	}
	dir := b.TempDir()
	var rels []string
	for len(rels) < n {
		folder := fmt.Sprintf("%s-%d", words[r.IntN(70)], len(rels))
		for k := range min(10+r.IntN(30), n-len(rels)) {
			name := "README.md"
			if k > 0 {
				name = strings.ReplaceAll(strings.ToLower(title()), " ", "-") + fmt.Sprintf("-%d.md", k)
			}
			rels = append(rels, folder+"/"+name)
		}
	}
	for _, rel := range rels {
		var body strings.Builder
		fmt.Fprintf(&body, "# %s\n\n", title())
		for range 2 + r.IntN(4) {
			fmt.Fprintf(&body, "## %s\n\n", title())
			for range 1 + r.IntN(3) {
				for range 2 + r.IntN(4) {
					body.WriteString(sentence() + " ")
				}
				body.WriteString("\n\n")
			}
			switch r.IntN(4) {
			case 0:
				for range 3 + r.IntN(5) {
					fmt.Fprintf(&body, "- %s\n", sentence())
				}
			case 1:
				for range 2 + r.IntN(6) {
					to := rels[r.IntN(len(rels))]
					fmt.Fprintf(&body, "- [%s](/%s) — %s\n", title(), to, sentence())
				}
			case 2:
				fmt.Fprintf(&body, "Decision: %s\n\n- [ ] @dana will %s\n", sentence(), strings.ToLower(sentence()))
			}
			body.WriteString("\n```\nkubectl get pods -n " + words[r.IntN(70)] + "\n```\n\n")
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkIngest ingests one source (with a topic from the taxonomy and
// one related page) into spaces of 1,000 and 10,000 pages.
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			s := benchSpace(b, n)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				i++
				_, err := ingest.Ingest(ctx, s, ingest.Source{
					Title: fmt.Sprintf("Benchmark standup %d", i), Body: []byte(fmt.Sprintf(standup+"\nRun %d.\n", i)),
					Kind: "meeting-notes", ApprovedBy: "dana", Author: dana, When: t0,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchSpace generates a realistic space of n pages (wiki/spacegen).
func benchSpace(b *testing.B, n int) *wiki.Space {
	b.Helper()
	s, err := spacegen.Generate(context.Background(), b.TempDir(), spacegen.Options{Pages: n, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkIngestAfterHandEdits ingests one source right after a person's
// plain git commit that appended a line to k pages of a 10,000-page space:
// the batch catches the spokes up with those pages first (only the commit
// is outside the timer).
//
//	go test ./ingest/ -run '^$' -bench IngestAfterHandEdits -benchtime 5x
func BenchmarkIngestAfterHandEdits(b *testing.B) {
	for _, k := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("pages=10000/k=%d", k), func(b *testing.B) {
			s := benchSpace(b, 10000)
			ctx := context.Background()
			head, err := s.Head(ctx)
			if err != nil {
				b.Fatal(err)
			}
			es, err := s.Pages(ctx, head)
			if err != nil {
				b.Fatal(err)
			}
			var pages []string
			for _, e := range es {
				if !wiki.IsIndexPage(e.Path) {
					pages = append(pages, e.Path)
				}
			}
			r := rand.New(rand.NewPCG(3, 4))
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				r.Shuffle(len(pages), func(x, y int) { pages[x], pages[y] = pages[y], pages[x] })
				for _, p := range pages[:min(k, len(pages))] {
					f, err := os.OpenFile(filepath.Join(s.Dir(), p), os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					fmt.Fprintf(f, "\nHand edit %d.\n", i)
					f.Close()
				}
				git(b, s.Dir(), "add", "-A")
				git(b, s.Dir(), "commit", "-q", "-m", fmt.Sprintf("hand edit %d", i))
				b.StartTimer()
				if _, err := ingest.Ingest(ctx, s, ingest.Source{
					Title: fmt.Sprintf("After hand edits %d", i), Body: []byte(fmt.Sprintf(standup+"\nRun %d.\n", i)),
					Kind: "meeting-notes", ApprovedBy: "dana", Author: dana, When: t0,
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
