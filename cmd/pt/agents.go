package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/mcp"
)

func init() { register(newAgentsCmd) }

func newAgentsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{Use: "agents", Short: "write what coding agents read about the space"}
	install := &cobra.Command{
		Use:   "install",
		Short: "write the space's AGENTS.md section and the consult-the-kb skill at the repository's root",
		Long: "install merges the space's section into AGENTS.md between pt's markers (the rest of the file\n" +
			"is kept as it is) and writes .claude/skills/consult-the-kb/SKILL.md unless a person's version\n" +
			"is there. It writes the work tree only: review and commit the files. pt init does the same in\n" +
			"its first commit. A second run changes nothing.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			dir, prefix, name := s.Dir(), s.Prefix(), s.Config().Name
			s.Close()
			if dir == "" {
				return errors.New("the space is a bare repository: install the guidance in a checkout")
			}
			res, err := mcp.InstallGuidance(repoRoot(dir, prefix), prefix, name)
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) {
				for _, f := range res.Files {
					fmt.Fprintf(w, "%s: %s\n", f.Path, f.Status)
				}
			})
		},
	}
	cmd.AddCommand(install)
	needsSubcommand(cmd)
	return cmd
}
