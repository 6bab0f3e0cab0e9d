package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/mcp"
)

func init() { register(newTokenCmd) }

func newTokenCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "manage the bearer tokens of pt serve --http",
		Long:  "Tokens are stored as SHA-256 hashes in the repository's .git directory (never committed).\nA read token may call the read tools; a write token may also ingest, revert and file back.",
	}
	var name, person, scope, clearance string
	create := &cobra.Command{
		Use:   "create",
		Short: "create a token and print it once",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if name == "" && person == "" {
				return usageError{errors.New("--name or --for is required")}
			}
			if scope != mcp.ScopeRead && scope != mcp.ScopeWrite {
				return usageError{fmt.Errorf("--scope must be read or write, not %q", scope)}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			secret, tok, err := mcp.OpenTokens(s).Issue(mcp.TokenSpec{Name: name, For: person, Scope: scope, Clearance: clearance}, s.Now())
			if err != nil {
				return err
			}
			out := struct {
				mcp.Token
				Secret string `json:"token"`
			}{tok, secret}
			return e.emit(out, func(w io.Writer) {
				fmt.Fprintln(w, secret)
				whose := "an agent's token: its writes carry no approver"
				if tok.For != "" {
					whose = tok.For + "'s token: its writes are approved by " + tok.For
				}
				fmt.Fprintf(e.stderr, "pt: token %q (%s; %s) created; it is shown only this once: send it as \"Authorization: Bearer <token>\"\n", tok.Name, scope, whose)
			})
		},
	}
	create.Flags().StringVar(&name, "name", "", "the token's name: the author of what its agent writes (default: the --for person)")
	create.Flags().StringVar(&person, "for", "", "the person the token belongs to, who approves what its client writes (default: none, an agent's token)")
	create.Flags().StringVar(&clearance, "clearance", "", "the highest classification its client may read (default UNCLASSIFIED)")
	create.Flags().StringVar(&scope, "scope", mcp.ScopeRead, "read or write")

	list := &cobra.Command{
		Use:   "list",
		Short: "list the tokens (names and scopes; the secrets are not kept)",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			toks, err := mcp.OpenTokens(s).List()
			if err != nil {
				return err
			}
			return e.emit(toks, func(w io.Writer) {
				if len(toks) == 0 {
					fmt.Fprintln(w, "no tokens")
				}
				for _, t := range toks {
					whose := "agent"
					if t.For != "" {
						whose = "for " + t.For
					}
					clr := t.Clearance
					if clr == "" {
						clr = content.Unclassified
					}
					fmt.Fprintf(w, "%-24s %-5s %-12s %-12s created %s\n", t.Name, t.Scope, whose, clr, t.Created.UTC().Format(time.RFC3339))
				}
			})
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke NAME",
		Short: "revoke a token; a running server refuses it from the next request on",
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			if err := mcp.OpenTokens(s).Revoke(args[0]); err != nil {
				return err
			}
			return e.emit(map[string]string{"revoked": args[0]}, func(w io.Writer) { fmt.Fprintf(w, "revoked %s\n", args[0]) })
		},
	}
	cmd.AddCommand(create, list, revoke)
	needsSubcommand(cmd)
	return cmd
}
