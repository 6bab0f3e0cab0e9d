package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/wiki"
)

func init() { register(newLogCmd) }

func newLogCmd(e *env) *cobra.Command {
	var n int
	cmd := &cobra.Command{
		Use:   "log",
		Short: "list the space's batches and commits, newest first",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if n < 0 {
				return usageError{fmt.Errorf("--n %d: must not be negative (0 lists every commit)", n)}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			cs, err := s.History(e.ctx, "", n)
			if err != nil {
				return err
			}
			return e.emit(cs, func(w io.Writer) { printLog(w, cs) })
		},
	}
	cmd.Flags().IntVarP(&n, "n", "n", 20, "how many commits (0 for all)")
	return cmd
}

// printLog renders the history: one line per commit with its batch, its
// subject, who approved it and which agent wrote it.
func printLog(w io.Writer, cs []wiki.Commit) {
	for _, c := range cs {
		id := "(plain commit)"
		if c.Batch != nil {
			id = c.Batch.BatchID
		}
		fmt.Fprintf(w, "%s  %s  %-17s  %s  (%s)\n", short(c.Hash), c.When.UTC().Format("2006-01-02 15:04"), id, c.Subject, who(c))
	}
}

// who says who stands behind a commit: the person who approved the batch
// and the agent that wrote it, else the commit's author.
func who(c wiki.Commit) string {
	var parts []string
	if c.Batch != nil && c.Batch.ApprovedBy != "" {
		parts = append(parts, "approved by "+c.Batch.ApprovedBy)
	}
	if c.Batch != nil && c.Batch.AgentName != "" {
		parts = append(parts, "agent "+c.Batch.AgentName)
	}
	if len(parts) == 0 {
		return "by " + c.Author
	}
	return strings.Join(parts, ", ")
}
