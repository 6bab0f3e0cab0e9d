package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newEvalCmd) }

func newEvalCmd(e *env) *cobra.Command {
	var questions []string
	var pairs, consults, corpusRoot string
	var k, budget int
	cmd := &cobra.Command{
		Use:   "eval --questions FILE... | --consults FILE",
		Short: "measure retrieval on questions with known answers, or file-back on labelled consults",
		Long: "eval asks every question of a JSONL file ({\"id\",\"question\",\"gold\":[paths],\"kind\"}) and reports\n" +
			"hit@1, hit@5 and MRR over the gold pages, multi-hop recall in the top 8, context tokens and\n" +
			"latency, for pt and for plain BM25 over whole pages and a naive keyword count; for pt, the\n" +
			"share of answerable questions refused, of questions on subjects the space does not cover\n" +
			"(empty gold) answered insufficient, and of \"unstated\" ones (subject covered, detail not).\n" +
			"Several --questions files are evaluated as one set.\n\n" +
			"With --consults, it reads labelled consults ({\"id\",\"corpus\",\"question\",\"answer\",\"citations\",\n" +
			"\"expected\",\"gate\",\"durability\",\"category\",\"group\"}), imports each corpus named (a folder of\n" +
			"--corpus-root) into a scratch space, files the consults in order, and prints the confusion\n" +
			"table of expected against got verdicts, the accuracy and the figures per category.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if consults != "" {
				if len(questions) > 0 || pairs != "" {
					return usageError{errors.New("--consults is measured on its own: drop --questions and --pairs")}
				}
				return evalConsults(e, consults, corpusRoot)
			}
			if len(questions) == 0 && pairs == "" {
				return usageError{errors.New("--questions FILE (or --pairs FILE, or --consults FILE) is required")}
			}
			if len(questions) == 0 {
				s, err := e.open()
				if err != nil {
					return err
				}
				defer s.Close()
				rep, err := runCompounding(e, s, pairs)
				if err != nil {
					return err
				}
				return e.emit(rep, func(w io.Writer) { renderCompounding(w, rep) })
			}
			var qs []retrieve.Question
			for _, p := range questions {
				f, err := os.Open(p)
				if err != nil {
					return err
				}
				more, err := retrieve.ReadQuestions(f)
				f.Close()
				if err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
				qs = append(qs, more...)
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			eng := retrieve.Open(s, retrieve.Options{})
			defer eng.Close()
			rep, err := eng.Eval(e.ctx, qs, retrieve.EvalOptions{K: k, Budget: budget})
			if err != nil {
				return err
			}
			if pairs == "" {
				return e.emit(rep, func(w io.Writer) { renderEval(w, rep) })
			}
			comp, err := runCompounding(e, s, pairs)
			if err != nil {
				return err
			}
			both := struct {
				*retrieve.EvalReport
				Compounding *ingest.CompoundingReport `json:"compounding"`
			}{rep, comp}
			return e.emit(both, func(w io.Writer) {
				renderEval(w, rep)
				fmt.Fprintln(w)
				renderCompounding(w, comp)
			})
		},
	}
	cmd.Flags().StringArrayVar(&questions, "questions", nil, "JSONL file of questions (repeatable)")
	cmd.Flags().StringVar(&pairs, "pairs", "", "JSONL file of related question pairs: also measure compounding (on a scratch copy)")
	cmd.Flags().StringVar(&consults, "consults", "", "JSONL file of labelled consults: measure file-back's verdicts (on scratch imports)")
	cmd.Flags().StringVar(&corpusRoot, "corpus-root", "", "the folder holding the consults' corpora (default $PT_CORPORA, else shared/corpora above the working directory)")
	cmd.Flags().IntVar(&k, "k", retrieve.DefaultK, "results per question")
	cmd.Flags().IntVar(&budget, "budget", retrieve.DefaultBudget, "context budget in tokens")
	return cmd
}

func renderEval(w io.Writer, rep *retrieve.EvalReport) {
	fmt.Fprintf(w, "%d questions\n", rep.Questions)
	fmt.Fprintf(w, "%-15s %6s %6s %6s %9s %9s %9s %9s %9s\n", "system", "hit@1", "hit@5", "MRR", "multihop", "insuff", "tok p50", "tok p90", "ms p50")
	for _, f := range rep.Systems {
		fmt.Fprintf(w, "%-15s %6.3f %6.3f %6.3f %9.3f %9s %9d %9d %9.2f\n", f.System, f.HitAt1, f.HitAt5, f.MRR, f.MultiHop, rate(f.Insufficient), f.MedianTokens, f.P90Tokens, f.MedianLatencyMS)
	}
	if pt := rep.Systems[0]; pt.FalseNegatives >= 0 {
		fmt.Fprintf(w, "pt refused: answerable %s of %d, off-subject %s of %d, unstated %s of %d (subject page shown: %.3f)\n",
			rate(pt.FalseNegatives), pt.Answerable, rate(pt.OffSubject), pt.OffSubjectN, rate(pt.Unstated), pt.UnstatedN, pt.UnstatedNear)
	}
	for _, r := range rep.Results {
		if len(r.Gold) > 0 && (r.Rank == 0 || r.Rank > 5) || len(r.Gold) == 0 && r.Sufficient && r.Kind != retrieve.KindUnstated {
			fmt.Fprintf(w, "miss %s (%s): rank %d, sufficient %v, coverage %.2f\n", r.ID, r.Kind, r.Rank, r.Sufficient, r.Coverage)
		}
	}
}

// rate prints a share, or "-" for a system without it.
func rate(x float64) string {
	if x < 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}
