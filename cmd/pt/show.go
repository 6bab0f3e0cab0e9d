package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
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
			r, err := resolveRev(e, s, rev)
			if err != nil {
				return err
			}
			if e.json {
				pa, err := s.ReadPage(e.ctx, r, p)
				if errors.Is(err, wiki.ErrNotFound) {
					return fmt.Errorf("show %s: no such page at %s", p, rev)
				}
				if err != nil {
					return err
				}
				return e.emit(shown{Path: p, Revision: pa.Revision, Commit: string(r), Meta: pa.Page.Meta, Body: string(pa.Page.Body)}, nil)
			}
			data, _, err := s.ReadFile(e.ctx, r, p)
			if errors.Is(err, wiki.ErrNotFound) {
				return fmt.Errorf("show %s: no such page at %s", p, rev)
			}
			if err != nil {
				return err
			}
			_, err = inertWriter{e.stdout}.Write(data)
			return err
		},
	}
	cmd.Flags().StringVar(&rev, "rev", "HEAD", "the revision to read at: a commit, branch or tag, or a batch id (the page as that batch left it)")
	return cmd
}

// resolveRev resolves a git revision, else a batch id (b-...) as printed by
// pt log, to its commit.
func resolveRev(e *env, s *wiki.Space, rev string) (wiki.Rev, error) {
	r, err := s.Resolve(e.ctx, rev)
	if !errors.Is(err, wiki.ErrNotFound) {
		return r, err
	}
	return "", fmt.Errorf("revision %q: not found (a commit, branch, tag or batch id)", rev)
}
