package main

import (
	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
)

func init() { register(newShowCmd) }

// shown is the JSON of pt show.
type shown struct {
	Path     string       `json:"path"`
	Revision string       `json:"revision"`
	Commit   string       `json:"commit"`
	Meta     content.Meta `json:"meta"`
	Body     string       `json:"body"`
}

func newShowCmd(e *env) *cobra.Command {
	var rev string
	cmd := &cobra.Command{
		Use:   "show PATH",
		Short: "print a page as it is at HEAD or at --rev",
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := content.CleanPath(args[0])
			if err != nil {
				return err
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			r, err := s.Resolve(e.ctx, rev)
			if err != nil {
				return err
			}
			if e.json {
				pa, err := s.ReadPage(e.ctx, r, p)
				if err != nil {
					return err
				}
				return e.emit(shown{Path: p, Revision: pa.Revision, Commit: string(r), Meta: pa.Page.Meta, Body: string(pa.Page.Body)}, nil)
			}
			data, _, err := s.ReadFile(e.ctx, r, p)
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(data)
			return err
		},
	}
	cmd.Flags().StringVar(&rev, "rev", "HEAD", "the revision to read at")
	return cmd
}
