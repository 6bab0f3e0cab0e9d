package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newQueryCmd) }

func newQueryCmd(e *env) *cobra.Command {
	var k, budget int
	cmd := &cobra.Command{
		Use:   "query-kb QUESTION",
		Short: "answer a question from the space: cited excerpts, or an honest \"insufficient\"",
		Long: "query-kb reads the hub, the spokes of the topics that match the question and their pages'\n" +
			"sections, fuses them with full-text search, and prints the best excerpts within a token\n" +
			"budget, each with its page path and blob revision. When the space does not hold the\n" +
			"answer it says so (sufficient: false) and prints no excerpts.",
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if k < 0 || budget < 0 {
				return usageError{errors.New("--k and --budget must not be negative")}
			}
			// The flags default to DefaultK and DefaultBudget, so a 0 here was
			// asked for: it is refused, not taken for the default.
			if k == 0 {
				return usageError{errors.New("--k 0: ask for at least one excerpt")}
			}
			if strings.TrimSpace(args[0]) == "" {
				return usageError{retrieve.ErrEmptyQuestion}
			}
			if budget < retrieve.MinBudget {
				return usageError{fmt.Errorf("--budget %d: %w", budget, retrieve.ErrBudgetTooSmall)}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			defer retrieve.CloseIndexes()
			res, err := retrieve.Query(e.ctx, s, retrieve.Request{Question: args[0], K: k, Budget: budget})
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { renderResult(w, res) })
		},
	}
	cmd.Flags().IntVar(&k, "k", retrieve.DefaultK, "at most this many excerpts")
	cmd.Flags().IntVar(&budget, "budget", retrieve.DefaultBudget, "context budget in tokens (about 4 characters each)")
	return cmd
}

func renderResult(w io.Writer, res *retrieve.Result) {
	if !res.Sufficient {
		fmt.Fprintln(w, "insufficient: the space does not answer this question")
		if res.Trace.Reason != "" {
			fmt.Fprintf(w, "(%s)\n", res.Trace.Reason)
		}
		for _, n := range res.Nearest {
			fmt.Fprintf(w, "nearest: %s — %s\n", n.Path, n.Title)
		}
		return
	}
	fmt.Fprintf(w, "%d excerpts, about %d tokens", len(res.Results), res.Tokens)
	if len(res.Trace.Topics) > 0 {
		fmt.Fprintf(w, "; topics: %s", strings.Join(res.Trace.Topics, ", "))
	}
	if len(res.Trace.Expanded) > 0 {
		fmt.Fprintf(w, "; also searched as: %s", strings.Join(res.Trace.Expanded, ", "))
	}
	fmt.Fprintln(w)
	for i, h := range res.Results {
		loc := h.Path
		if h.Anchor != "" {
			loc += "#" + h.Anchor
		}
		fmt.Fprintf(w, "\n%d. %s — %s@%s", i+1, h.Title, loc, h.Revision)
		if h.NeedsReview {
			fmt.Fprint(w, "  [needs review]")
		}
		fmt.Fprintln(w)
		for _, l := range strings.Split(h.Excerpt, "\n") {
			fmt.Fprintln(w, "   "+l)
		}
	}
}
