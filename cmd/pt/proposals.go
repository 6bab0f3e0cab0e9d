package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

func init() {
	register(newProposalsCmd)
	register(newApproveCmd)
	register(newRejectCmd)
}

func newProposalsCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "proposals",
		Short: "list the proposals waiting for review, each with the id pt approve and pt reject take",
		Long: "proposals lists the batches agents proposed (refs/heads/pt/proposals/<id>), oldest first.\n" +
			"Each is an ordinary branch: review it on the git host as a pull request, or with git show.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			ps, err := s.Proposals(e.ctx)
			if err != nil {
				return err
			}
			return e.emit(ps, func(w io.Writer) { printProposals(w, ps) })
		},
	}
}

func printProposals(w io.Writer, ps []wiki.Proposal) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "no proposals")
		return
	}
	for _, p := range ps {
		by := p.Author
		if p.Agent != "" {
			by = "agent " + p.Agent
		}
		fmt.Fprintf(w, "%s  %s  %s: %s  (by %s, on %s)\n", p.ID, p.When.Format("2006-01-02 15:04"), p.Kind, p.Title, by, short(p.Base))
		for _, path := range p.Paths {
			fmt.Fprintf(w, "    %s\n", path)
		}
	}
}

func newApproveCmd(e *env) *cobra.Command {
	var approvedBy string
	cmd := &cobra.Command{
		Use:   "approve ID",
		Short: "land a proposal on the branch as one commit, rebuilt on the current head",
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if approvedBy == "" {
				return usageError{errors.New("--approved-by is required: name the person who approved the proposal")}
			}
			if err := ingest.CheckLine("approve", "approved_by", approvedBy); err != nil {
				return usageError{err}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Approve(e.ctx, args[0], wiki.ApproveOptions{ApprovedBy: approvedBy, Committer: e.identity()})
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printResult(w, res) })
		},
	}
	cmd.Flags().StringVar(&approvedBy, "approved-by", "", "who approved the proposal (required)")
	return cmd
}

func newRejectCmd(e *env) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "reject ID",
		Short: "close a proposal; it is kept under refs/pt/rejected/<id> with the reason",
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if reason == "" {
				return usageError{errors.New("--reason is required: say why, for the agent that proposed it")}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Reject(e.ctx, args[0], reason, e.identity())
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) {
				fmt.Fprintf(w, "rejected %s: kept at %s (commit %s)\n", res.ID, res.Ref, short(res.Commit))
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the proposal is rejected (required)")
	return cmd
}
