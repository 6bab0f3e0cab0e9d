package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newEvalCompoundingCmd) }

func newEvalCompoundingCmd(e *env) *cobra.Command {
	var pairsFile string
	cmd := &cobra.Command{
		Use:   "eval-compounding --pairs FILE",
		Short: "measure compounding: does a filed answer come back for a related later question",
		Long: `eval-compounding reads pairs of related questions (JSONL: id, first, answer,
cite, second). On a scratch copy of the space (the space itself is never
written), it asks each second question cold, files the first back through
every gate, and asks the second again; it reports how often the synthesis
ranks in the top 3 and how the second question's context size changed.`,
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pairsFile == "" {
				return usageError{errors.New("--pairs is required")}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			rep, err := runCompounding(e, s, pairsFile)
			if err != nil {
				return err
			}
			return e.emit(rep, func(w io.Writer) { renderCompounding(w, rep) })
		},
	}
	cmd.Flags().StringVar(&pairsFile, "pairs", "", "JSONL file of question pairs (required)")
	return cmd
}

func renderCompounding(w io.Writer, rep *ingest.CompoundingReport) {
	fmt.Fprintf(w, "%-6s %-8s %-15s %4s %6s %6s\n", "pair", "verdict", "gate", "rank", "cold", "warm")
	for _, r := range rep.Results {
		fmt.Fprintf(w, "%-6s %-8s %-15s %4d %6d %6d\n", r.ID, r.Verdict, r.Gate, r.Rank, r.ColdTokens, r.WarmTokens)
	}
	fmt.Fprintf(w, "\n%d pairs, %d filed; synthesis in the top 3 for %d of %d filed (%.2f)\n", rep.Pairs, rep.Filed, rep.Top3, rep.Filed, rep.Top3Rate)
	fmt.Fprintf(w, "context tokens of the second question, filed pairs: cold %.0f, warm %.0f (%+.1f%%)\n", rep.MeanColdTokens, rep.MeanWarmTokens, 100*rep.TokenChange)
	fmt.Fprintf(w, "second questions answered sufficiently: cold %d, warm %d\n", rep.SufficientCold, rep.SufficientWarm)
}

// runCompounding measures compounding on a scratch copy of s, so the space
// itself is never written.
func runCompounding(e *env, s *wiki.Space, pairsFile string) (*ingest.CompoundingReport, error) {
	f, err := os.Open(pairsFile)
	if err != nil {
		return nil, err
	}
	pairs, err := ingest.ReadPairs(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "pt-compounding-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	c, err := ingest.ScratchCopy(e.ctx, s, filepath.Join(tmp, "space"))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	eng := retrieve.Open(c, retrieve.Options{})
	defer eng.Close()
	return ingest.Compounding(e.ctx, c, eng, pairs)
}
