package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
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
			return e.emit(cs, func(w io.Writer) {
				for _, c := range cs {
					id := "(plain commit)"
					if c.Batch != nil {
						id = c.Batch.BatchID
					}
					fmt.Fprintf(w, "%s  %s  %-20s  %s\n", short(c.Hash), c.When.UTC().Format("2006-01-02 15:04"), id, c.Subject)
				}
			})
		},
	}
	cmd.Flags().IntVarP(&n, "n", "n", 20, "how many commits (0 for all)")
	return cmd
}
