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
	var failInsufficient bool
	cmd := &cobra.Command{
		Use:   "query-kb QUESTION",
		Short: "answer a question from the space: cited excerpts, or an honest \"insufficient\"",
		Long: "query-kb reads the hub, the spokes of the topics that match the question and their pages'\n" +
			"sections, fuses them with full-text search, and prints the best excerpts within a token\n" +
			"budget, each with its page path and blob revision. When the space does not hold the\n" +
			"answer it says so (sufficient: false) and prints no excerpts.",
		Args: questionArg,
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
			eng := retrieve.Open(s, retrieve.Options{})
			defer eng.Close()
			res, err := eng.Query(e.ctx, retrieve.Request{Question: args[0], K: k, Budget: budget})
			if err != nil {
				return err
			}
			if err := e.emit(res, func(w io.Writer) { renderResult(w, res, 0) }); err != nil {
				return err
			}
			if failInsufficient && !res.Sufficient {
				return exitError{exitFailure}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&k, "k", retrieve.DefaultK, "at most this many excerpts")
	cmd.Flags().BoolVar(&failInsufficient, "fail-insufficient", false, "exit 1 when the space does not answer the question (for scripts)")
	cmd.Flags().IntVar(&budget, "budget", retrieve.DefaultBudget, "context budget in tokens (about 4 characters each)")
	return cmd
}

// questionArg takes one question; several words unquoted are most likely
// a question the shell split, so the error says to quote it.
func questionArg(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageError{fmt.Errorf("%s takes one question, got %d words: quote it, as in pt %s %q", cmd.Name(), len(args), cmd.Name(), strings.Join(args, " "))}
	}
	return argsN(1, 1)(cmd, args)
}

// renderResult renders a retrieval result for people: each excerpt with
// the page and the revision it was read at. clip > 0 shortens each excerpt
// to one line of at most clip characters (the demo).
func renderResult(w io.Writer, res *retrieve.Result, clip int) {
	if !res.Sufficient {
		fmt.Fprintln(w, "insufficient: the space does not answer this question")
		if res.Trace.Reason != "" {
			fmt.Fprintf(w, "(%s)\n", res.Trace.Reason)
		}
		return
	}
	fmt.Fprintf(w, "%s, about %d tokens", count(len(res.Results), "excerpt"), res.Tokens)
	if len(res.Trace.Topics) > 0 {
		fmt.Fprintf(w, "; topics: %s", strings.Join(res.Trace.Topics, ", "))
	}
	if len(res.Trace.Expanded) > 0 {
		fmt.Fprintf(w, "; also searched as: %s", strings.Join(res.Trace.Expanded, ", "))
	}
	fmt.Fprintln(w)
	for _, r := range res.Trace.Superseded {
		fmt.Fprintf(w, "%s is superseded: answered from %s\n", r.From, r.To)
	}
	for i, h := range res.Results {
		loc := h.Path
		if h.Anchor != "" {
			loc += "#" + h.Anchor
		}
		fmt.Fprintf(w, "\n%d. %s — %s@%s", i+1, h.Title, loc, short(h.Revision))
		if h.NeedsReview {
			fmt.Fprint(w, "  [needs review]")
		}
		fmt.Fprintln(w)
		if clip > 0 {
			fmt.Fprintln(w, "   "+clipLine(h.Excerpt, clip))
			continue
		}
		for _, l := range strings.Split(h.Excerpt, "\n") {
			fmt.Fprintln(w, "   "+l)
		}
	}
}

// clipLine joins s into one line of at most n characters.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
