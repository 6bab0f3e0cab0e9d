package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
)

func init() { register(newCurateCmd) }

func newCurateCmd(e *env) *cobra.Command {
	var dryRun, noModel bool
	var format, failOn, nowFlag string
	var minPages int
	var propose []string
	cmd := &cobra.Command{
		Use:   "curate",
		Short: "find contradictions, stale claims, missing concepts and merge candidates, and commit them as findings",
		Long: "curate reads the space at HEAD for what mechanical lint cannot see: two active pages that state\n" +
			"different values for one subject (contradiction), sentences whose own time words have passed at the\n" +
			"decision time (stale_claim), terms many pages use that no page names (missing_concept), pages that\n" +
			"say the same thing (merge_candidate) and lessons retrospectives repeat (unpromoted_lesson). The\n" +
			"findings join lint's rows in findings.json as one batch; no page is ever rewritten. With PT_LLM_URL\n" +
			"set, a model confirms or dismisses each finding and its reason is kept (--no-model to skip it).\n\n" +
			"--propose ID (repeatable, or comma-separated) opens, for each finding, a proposal with its fix on a\n" +
			"branch of its own (pt proposals, pt approve, pt reject); the branch and work tree do not move:\n" +
			"  merge_candidate    supersede one page by the other (the one more pages link to survives, else the\n" +
			"                     longer, else the newer), the superseded page's own lines appended to it\n" +
			"  stale_claim        mark the page stale, the claim cited in the proposal\n" +
			"  contradiction      a review note on both pages citing the other's value and line\n" +
			"  missing_concept    a stale page named for the term, listing each page using it with its sentence\n" +
			"  unpromoted_lesson  a page holding the lesson, citing where it was stated\n" +
			"An unknown or resolved finding, or one with a proposal waiting, is refused (exit 2).",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, threshold, now, err := findingFlags(e, format, failOn, nowFlag)
			if err != nil {
				return err
			}
			if minPages < 0 {
				return usageError{fmt.Errorf("--min-pages %d: use a positive number", minPages)}
			}
			if len(propose) > 0 {
				return e.proposeCurate(propose, minPages, now)
			}
			opts := lint.CurateOptions{DryRun: dryRun, Author: e.identity(), MinPages: minPages, Now: now}
			if m := ingest.ModelFromEnv(os.Getenv); m != nil && !noModel {
				opts.Model = m
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			rep, err := lint.Curate(e.ctx, s, opts)
			if err != nil {
				return err
			}
			if err := writeCurateReport(e, format, rep); err != nil {
				return err
			}
			for _, f := range rep.Open() {
				if threshold > 0 && lint.IsCuration(f.Check) && lint.SeverityRank(f.Severity) >= threshold {
					return exitError{code: exitFailure}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "curate and report, but commit nothing")
	cmd.Flags().BoolVar(&noModel, "no-model", false, "do not ask the model of PT_LLM_URL: the mechanical rules alone")
	cmd.Flags().StringVar(&format, "format", "text", "output: text, json or sarif")
	cmd.Flags().StringVar(&failOn, "fail-on", "none", "exit 1 when an open curation finding is at least this severe: error, warning, note or none")
	cmd.Flags().StringVar(&nowFlag, "now", "", "the decision time (RFC 3339 or YYYY-MM-DD; default the space's clock): what counts as stale")
	cmd.Flags().IntVar(&minPages, "min-pages", 0, "missing_concept: how many pages must use a term (default kb.yaml curate.min_pages, else 4)")
	cmd.Flags().StringSliceVar(&propose, "propose", nil, "open a proposal fixing the finding ID (repeatable); commits no findings")
	return cmd
}

// proposeCurate opens a proposal for each finding and prints them.
func (e *env) proposeCurate(ids []string, minPages int, now time.Time) error {
	s, err := e.open()
	if err != nil {
		return err
	}
	defer s.Close()
	ps, err := ingest.ProposeCurateFixes(e.ctx, s, ingest.CurateProposeOptions{IDs: ids, Now: now, MinPages: minPages, Author: e.identity()})
	if errors.Is(err, lint.ErrUnknownFinding) || errors.Is(err, lint.ErrResolvedFinding) || errors.Is(err, ingest.ErrAlreadyProposed) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	return e.emit(ps, func(w io.Writer) { printCurateProposals(w, ps) })
}

func printCurateProposals(w io.Writer, ps []ingest.CurateProposal) {
	for _, p := range ps {
		if p.Unchanged {
			fmt.Fprintf(w, "%s %s: nothing to change\n", p.Check, p.Finding)
			continue
		}
		fmt.Fprintf(w, "proposed %s: %s\n", p.Batch, p.Title)
		fmt.Fprintf(w, "    %s (pt approve %s --approved-by NAME)\n", p.Proposal, p.Batch)
	}
}

// writeCurateReport prints a curation run: its rows like lint's (text
// and SARIF show the curation rows only), JSON the whole report.
func writeCurateReport(e *env, format string, rep *lint.CurateReport) error {
	shown := *rep.Report
	shown.Findings = nil
	for _, f := range rep.Findings {
		if lint.IsCuration(f.Check) {
			shown.Findings = append(shown.Findings, f)
		}
	}
	switch format {
	case "sarif":
		return lint.WriteSARIF(e.stdout, []*lint.Report{&shown})
	case "json":
		e.json = true
		return e.emit(rep, nil)
	}
	if err := lint.WriteText(inertWriter{e.stdout}, []*lint.Report{&shown}); err != nil {
		return err
	}
	if rep.Model != nil {
		m := rep.Model
		fmt.Fprintf(e.stdout, "model: %d confirmed, %d dismissed, %d without an answer", m.Confirmed, m.Dismissed, m.Failed+m.Unasked)
		if m.LastError != "" {
			fmt.Fprintf(e.stdout, " (%s)", m.LastError)
		}
		fmt.Fprintln(e.stdout)
	}
	return nil
}
