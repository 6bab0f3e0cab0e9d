package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
)

func init() { register(newReapCmd) }

func newReapCmd(e *env) *cobra.Command {
	var now, approvedBy string
	cmd := &cobra.Command{
		Use:   "reap",
		Short: "expire time_bound pages past their date, in one commit",
		Long: `reap sets status: expired on every active page whose expires date has
passed (bodies are kept byte for byte), which drops them from the spokes and
from retrieval. With nothing to expire it writes nothing.`,
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			var t time.Time // zero: the space's clock
			if now != "" {
				var err error
				if t, err = parseClock(now); err != nil {
					return usageError{err}
				}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := ingest.Reap(e.ctx, s, t, approvedBy)
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printResult(w, res) })
		},
	}
	cmd.Flags().StringVar(&now, "now", "", "the reaper's clock, RFC 3339 or a date (default: now)")
	cmd.Flags().StringVar(&approvedBy, "approved-by", "", "who approved the reap (recorded in the commit)")
	return cmd
}
