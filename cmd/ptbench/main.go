// Command ptbench measures pt as a user feels it: whole processes on
// generated spaces, each alternated in the same run with the tool a user
// would otherwise reach for (git add and git commit for an ingest, ripgrep
// for a query), so that a busy machine slows both sides of every ratio.
//
//	make bench-cli                 # 10,000 pages
//	BENCH_LARGE=1 make bench-cli   # and 100,000 pages
//	ptbench -write-corpus DIR -pages N   # a folder to time `pt import` on
//
// Generated spaces are kept under $PT_BENCH_DIR (default a folder in the
// temporary directory) and reused by later runs; each run works on a fresh
// copy, so the kept space never changes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ptwiki/pt/wiki/spacegen"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ptbench: "+err.Error())
		os.Exit(1)
	}
}

// config is what one run measures.
type config struct {
	pt    string // the pt binary
	rg    string // the ripgrep binary
	cache string // where generated spaces are kept
	sizes []int  // pages per space
	runs  int    // counted pairs per figure
	only  string // "ingest", "query" or "" for both
}

func run(ctx context.Context, args []string) error {
	c := config{cache: os.Getenv("PT_BENCH_DIR")}
	fs := flag.NewFlagSet("ptbench", flag.ContinueOnError)
	fs.StringVar(&c.pt, "pt", "bin/pt", "the pt binary to measure")
	fs.StringVar(&c.rg, "rg", "rg", "the ripgrep binary")
	fs.IntVar(&c.runs, "runs", 9, "counted runs of each command, alternated with its anchor")
	fs.StringVar(&c.only, "only", "", "measure only ingest or query")
	sizes := fs.String("sizes", "", "comma-separated space sizes in pages (default 10000, and 100000 with BENCH_LARGE=1)")
	corpus := fs.String("write-corpus", "", "write a flat folder of -pages Markdown files (seed 7) for `pt import` into this directory, and exit")
	pages := fs.Int("pages", 10000, "files for -write-corpus")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *corpus != "" {
		return spacegen.WriteCorpus(*corpus, spacegen.Options{Pages: *pages, Seed: 7})
	}
	if c.cache == "" {
		c.cache = filepath.Join(os.TempDir(), "pt-bench")
	}
	c.sizes = []int{10000}
	if os.Getenv("BENCH_LARGE") == "1" {
		c.sizes = append(c.sizes, 100000)
	}
	if *sizes != "" {
		c.sizes = nil
		for _, f := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				return fmt.Errorf("-sizes %q: want page counts such as 10000,100000", *sizes)
			}
			c.sizes = append(c.sizes, n)
		}
	}
	pt, err := filepath.Abs(c.pt)
	if err != nil {
		return err
	}
	c.pt = pt
	fmt.Println(machineNote())
	fmt.Printf("pt %s, %d runs each, alternated with the anchor\n\n", c.pt, c.runs)
	var rows []row
	for _, n := range c.sizes {
		r, err := measureSize(ctx, c, n)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
		printRows(os.Stdout, r)
	}
	fmt.Println()
	fmt.Println(markdownTable(rows))
	return nil
}
