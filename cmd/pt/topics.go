package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newTopicsCmd) }

func newTopicsCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "topics [TOPIC]",
		Short: "print the hub, or one topic's spoke and its parts",
		Args:  argsN(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			topic := ""
			if len(args) == 1 {
				topic = args[0]
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			b, err := retrieve.Topics(e.ctx, s, topic)
			if err != nil {
				return err
			}
			return e.emit(b, func(w io.Writer) {
				for i, p := range b.Pages {
					if i > 0 {
						fmt.Fprintln(w)
					}
					fmt.Fprintf(w, "<!-- %s@%s -->\n%s", p.Path, p.Revision, p.Body)
				}
			})
		},
	}
}
