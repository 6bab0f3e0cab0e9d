package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/wiki"
)

func init() { register(newInitCmd) }

func newInitCmd(e *env) *cobra.Command {
	var name, owner, ci string
	var agents, commit bool
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "create a space (kb.yaml, hub, log, the agents' AGENTS.md and skill) as the first commit",
		Args:  argsN(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			} else if e.kb != "" {
				dir = e.kb
			}
			extra, err := ciJobFiles(ci, commit)
			if err != nil {
				return usageError{err}
			}
			s, res, err := wiki.Init(e.ctx, dir, wiki.InitOptions{Name: name, Owner: owner, Author: e.identity(), RootExtra: extra, Clock: e.clock, Guidance: agents})
			if err != nil {
				return err
			}
			defer s.Close()
			return e.emit(res, func(w io.Writer) {
				fmt.Fprintf(w, "created space %q in %s (commit %s)\n", s.Config().Name, dir, short(res.Commit))
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the space's name (default: the directory's name)")
	cmd.Flags().StringVar(&owner, "owner", "", "who owns the space: agent or human")
	cmd.Flags().BoolVar(&agents, "agents", true, "also write AGENTS.md's pt section and the consult-the-kb skill at the repository's root")
	cmd.Flags().StringVar(&ci, "ci", "", "also write a scheduled lint job: github or gitlab")
	cmd.Flags().BoolVar(&commit, "commit", false, "with --ci: a job that commits lint's and the reaper's batches and pushes them, for teams with no server")
	return cmd
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
