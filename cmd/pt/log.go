package main

import (
	"fmt"
	"io"

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

// printLog renders the history, one wiki.Commit.LogLine per commit, as
// the kb_log tool does.
func printLog(w io.Writer, cs []wiki.Commit) {
	for _, c := range cs {
		fmt.Fprintln(w, c.LogLine())
	}
}
