package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newRevertCmd) }

func newRevertCmd(e *env) *cobra.Command {
	var approvedBy string
	cmd := &cobra.Command{
		Use:   "revert BATCH",
		Short: "undo a batch as one new commit",
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if approvedBy == "" {
				return usageError{errors.New("--approved-by is required")}
			}
			if err := ingest.CheckLine("revert", "approved_by", approvedBy); err != nil {
				return usageError{err}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Revert(e.ctx, args[0], wiki.RevertOptions{ApprovedBy: approvedBy, Author: e.identity()})
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printResult(w, res) })
		},
	}
	cmd.Flags().StringVar(&approvedBy, "approved-by", "", "who approved the revert (required)")
	return cmd
}

// printResult renders a batch result for people.
func printResult(w io.Writer, res *wiki.Result) {
	if res.Unchanged {
		fmt.Fprintf(w, "%s: nothing to change\n", res.Kind)
		return
	}
	fmt.Fprintf(w, "%s batch %s: commit %s, %s\n", res.Kind, res.Batch, short(res.Commit), count(len(res.Pages), "path"))
	for _, p := range res.Pages {
		verb, role := "wrote", p.Role
		switch {
		case p.Role == wiki.RoleRestored && p.Deleted:
			verb, role = "deleted", "(the reverted batch added it)"
		case p.Role == wiki.RoleRestored:
			verb, role = "restored", "(as it was before the reverted batch)"
		case p.Deleted:
			verb = "deleted"
		}
		if strings.HasPrefix(role, "(") {
			fmt.Fprintf(w, "  %-8s %s %s\n", verb, p.Path, role)
			continue
		}
		fmt.Fprintf(w, "  %-8s %-9s %s\n", verb, role, p.Path)
	}
	for _, r := range res.Revised {
		fmt.Fprintf(w, "  revised  %s (was %s)\n", r.Path, short(r.From))
	}
	for _, s := range res.NotUpdated {
		fmt.Fprintf(w, "  skipped  %s: %s\n", s.Path, s.Reason)
	}
	for _, p := range res.WorktreeSkipped {
		fmt.Fprintf(w, "  note: %s has uncommitted edits in the work tree; left as it is\n", p)
	}
}
