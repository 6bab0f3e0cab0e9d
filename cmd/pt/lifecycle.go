package main

import (
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
)

func init() {
	register(newSupersedeCmd)
	register(newRetractCmd)
	register(newObsoleteCmd)
	register(newArchiveCmd)
}

func newSupersedeCmd(e *env) *cobra.Command {
	var r ingest.Retirement
	cmd := &cobra.Command{
		Use:   "supersede OLD --by NEW",
		Short: "mark a page superseded by its successor, as one commit",
		Long: "pt supersede sets OLD's status to superseded with superseded_by: NEW, and adds OLD to\n" +
			"NEW's supersedes list, as one commit that pt revert undoes. A source's summary follows\n" +
			"its source. Only those frontmatter fields change; no page body is touched. Retrieval\n" +
			"answers a question that matches OLD from NEW, and says so in its trace.",
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(r.New) == "" {
				return usageError{errors.New("--by is required: name the page that supersedes " + args[0])}
			}
			r.Old = args[0]
			return e.retire(r)
		},
	}
	cmd.Flags().StringVar(&r.New, "by", "", "the page that supersedes OLD (required)")
	cmd.Flags().StringVar(&r.ApprovedBy, "approved-by", "", "who approved it (required)")
	return cmd
}

func newRetractCmd(e *env) *cobra.Command {
	var r ingest.Retirement
	cmd := &cobra.Command{
		Use:   "retract PAGE --reason TEXT",
		Short: "retract a page that was wrong, as one commit",
		Long: "pt retract sets PAGE's status to retracted with the reason, as one commit that pt revert\n" +
			"undoes. A source's summary follows its source. The page stays in git and on the host;\n" +
			"retrieval never returns it again, and lint flags active pages that still cite it.",
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(r.Reason) == "" {
				return usageError{errors.New("--reason is required: say what was wrong")}
			}
			r.Old = args[0]
			return e.retire(r)
		},
	}
	cmd.Flags().StringVar(&r.Reason, "reason", "", "what was wrong (required)")
	cmd.Flags().StringVar(&r.ApprovedBy, "approved-by", "", "who approved it (required)")
	return cmd
}

func newObsoleteCmd(e *env) *cobra.Command {
	return statusCmd(e, content.StatusObsolete, "obsolete PAGE",
		"mark a page obsolete (it no longer applies, nothing replaces it), as one commit",
		"pt obsolete sets PAGE's status to obsolete, as one commit that pt revert undoes: what it\n"+
			"says no longer applies and no page replaces it (use pt supersede when one does). A source's\n"+
			"summary follows its source. The page stays in git and on the host; retrieval never returns\n"+
			"it again, and lint flags active pages that still cite it. --reason goes in the commit.",
		"why it no longer applies (recorded in the commit)")
}

func newArchiveCmd(e *env) *cobra.Command {
	return statusCmd(e, content.StatusArchived, "archive PAGE",
		"archive a page, kept for the record only, as one commit",
		"pt archive sets PAGE's status to archived, as one commit that pt revert undoes: the last\n"+
			"step of a page's life (active, superseded or obsolete before it), kept in git and on the\n"+
			"host for the record. A source's summary follows its source. Retrieval never returns it,\n"+
			"and lint flags active pages that still cite it. A retracted page stays retracted.",
		"why it is archived (recorded in the commit)")
}

// statusCmd is a command that sets one page's status, with an optional
// reason for the commit.
func statusCmd(e *env, status, use, short, long, reasonUsage string) *cobra.Command {
	r := ingest.Retirement{Status: status}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r.Old = args[0]
			return e.retire(r)
		},
	}
	cmd.Flags().StringVar(&r.Reason, "reason", "", reasonUsage)
	cmd.Flags().StringVar(&r.ApprovedBy, "approved-by", "", "who approved it (required)")
	return cmd
}

// retire writes a lifecycle batch for a person at the CLI.
func (e *env) retire(r ingest.Retirement) error {
	if strings.TrimSpace(r.ApprovedBy) == "" {
		return usageError{errors.New("--approved-by is required: name the person who approved it")}
	}
	s, err := e.open()
	if err != nil {
		return err
	}
	defer s.Close()
	r.Author = e.identity()
	res, err := ingest.Retire(e.ctx, s, r)
	if err != nil {
		return err
	}
	return e.emit(res, func(w io.Writer) { printResult(w, res) })
}
