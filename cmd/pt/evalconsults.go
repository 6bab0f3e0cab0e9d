package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// evalConsults is pt eval --consults: run, then print.
func evalConsults(e *env, file, corpusRoot string) error {
	rep, err := runEvalConsults(e, file, corpusRoot)
	if err != nil {
		return err
	}
	return e.emit(rep, func(w io.Writer) { renderConsultEval(w, rep) })
}

// runEvalConsults reads the labelled consults and evaluates file-back on
// scratch imports of their corpora: no space of the user's is opened.
func runEvalConsults(e *env, file, corpusRoot string) (*ingest.ConsultEvalReport, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	consults, err := ingest.ReadLabelledConsults(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	if corpusRoot == "" {
		corpusRoot = spacegen.Corpora()
	}
	if corpusRoot == "" {
		return nil, usageError{fmt.Errorf("--corpus-root DIR is needed (no $PT_CORPORA, no shared/corpora above the working directory)")}
	}
	tmp, err := os.MkdirTemp("", "pt-eval-consults-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	return ingest.EvalConsults(e.ctx, consults, ingest.ConsultEvalOptions{
		CorpusRoot: corpusRoot, Dir: tmp, Clock: e.clock,
		Progress: func(msg string) { fmt.Fprintln(e.stderr, msg) },
	})
}

// renderConsultEval prints the confusion table (expected down, got across),
// the accuracy, the figures per category and every wrong verdict.
func renderConsultEval(w io.Writer, rep *ingest.ConsultEvalReport) {
	var rows, cols []string
	seenR, seenC := map[string]bool{}, map[string]bool{}
	n := map[[2]string]int{}
	for _, c := range rep.Confusion {
		if !seenR[c.Expected] {
			seenR[c.Expected] = true
			rows = append(rows, c.Expected)
		}
		if !seenC[c.Got] {
			seenC[c.Got] = true
			cols = append(cols, c.Got)
		}
		n[[2]string{c.Expected, c.Got}] = c.N
	}
	sort.Strings(cols)
	fmt.Fprintf(w, "%-26s", "expected \\ got")
	for _, c := range cols {
		fmt.Fprintf(w, " %*s", max(len(c), 4), c)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%-26s", r)
		for _, c := range cols {
			v := "."
			if k := n[[2]string{r, c}]; k > 0 {
				v = fmt.Sprint(k)
			}
			fmt.Fprintf(w, " %*s", max(len(c), 4), v)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%d consults, %d right (%.2f); live state filed %d; syntheses refused as echoes %d\n",
		rep.Consults, rep.Right, rep.Accuracy, rep.LiveStateFiled, rep.SynthesesAsEchoes)
	fmt.Fprintf(w, "\n%-22s %4s %6s %6s\n", "category", "n", "right", "rate")
	for _, c := range rep.Categories {
		fmt.Fprintf(w, "%-22s %4d %6d %6.2f\n", c.Category, c.N, c.Right, c.Rate)
	}
	for _, o := range rep.Outcomes {
		if !o.Right {
			fmt.Fprintf(w, "miss %s (%s): expected %s, got %s: %s\n", o.ID, o.Category, o.Expected, o.Got, o.Reason)
		}
	}
}
