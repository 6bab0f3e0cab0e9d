package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/wiki"
)

func init() { register(newGapsCmd) }

func newGapsCmd(e *env) *cobra.Command {
	var n int
	cmd := &cobra.Command{
		Use:   "gaps",
		Short: "list the questions the space could not answer, most asked first",
		Long: "gaps lists the questions that query-kb and query_knowledge_base answered with sufficient: false\n" +
			"or low coverage, recorded in this clone's local state (never committed; kb.yaml gaps.record: false\n" +
			"turns recording off): how often each was asked, when, and the pages nearest to an answer. With\n" +
			"gaps.lint: true in kb.yaml, pt lint files them as knowledge_gap findings.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if n < 0 {
				return usageError{errors.New("--n must not be negative")}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			gaps, err := s.Gaps()
			if err != nil {
				return err
			}
			if n > 0 && len(gaps) > n {
				gaps = gaps[:n]
			}
			return e.emit(gaps, func(w io.Writer) { printGaps(w, gaps) })
		},
	}
	cmd.Flags().IntVar(&n, "n", 20, "at most this many questions (0: all)")
	return cmd
}

func printGaps(w io.Writer, gaps []wiki.Gap) {
	if len(gaps) == 0 {
		fmt.Fprintln(w, "no unanswered questions recorded")
		return
	}
	for _, g := range gaps {
		fmt.Fprintf(w, "%3d×  %s  (last %s, coverage %.2f)\n", g.Count, g.Question, g.Last.Format("2006-01-02 15:04"), g.Coverage)
		for _, p := range g.Nearest {
			fmt.Fprintf(w, "      nearest: %s\n", p)
		}
	}
}
