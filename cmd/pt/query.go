package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newQueryCmd) }

func newQueryCmd(e *env) *cobra.Command {
	var k, budget int
	var req retrieve.Request
	var since string
	var failInsufficient bool
	var also []string
	cmd := &cobra.Command{
		Use:   "query-kb [QUESTION]",
		Short: "answer a question from the space: cited excerpts, or an honest \"insufficient\"",
		Long: "query-kb reads the hub, the spokes of the topics that match the question and their pages'\n" +
			"sections, fuses them with full-text search, and prints the best excerpts within a token\n" +
			"budget, each with its page path and blob revision. When the space does not hold the\n" +
			"answer it says so (sufficient: false), prints no excerpts and names the nearest pages.\n" +
			"Every answer says how much of the question the excerpts cover and which of its key words\n" +
			"none holds: check that the excerpts state what you need before relying on them.\n\n" +
			"--path names a file you are about to change (relative to the code repository's root):\n" +
			"pages whose applies_to covers it come first, and the question may then be left out\n" +
			"(what applies to internal/ledger/replay.go). --topic, --kind and --since narrow the pages.\n" +
			"--also adds alternative phrasings or keywords, searched beside the question.",
		Args: questionArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if k < 0 || budget < 0 {
				return usageError{errors.New("--k and --budget must not be negative")}
			}
			// The flags default to DefaultK and DefaultBudget, so a 0 here was
			// asked for: it is refused, not taken for the default.
			if k == 0 {
				return usageError{errors.New("--k 0: ask for at least one excerpt")}
			}
			if len(args) == 1 {
				req.Question = args[0]
			}
			if strings.TrimSpace(req.Question) == "" && len(req.Paths) == 0 {
				return usageError{fmt.Errorf("%w (or name the files you will change with --path)", retrieve.ErrEmptyQuestion)}
			}
			if budget < retrieve.MinBudget {
				return usageError{fmt.Errorf("--budget %d: %w", budget, retrieve.ErrBudgetTooSmall)}
			}
			if since != "" {
				t, err := parseDate(since)
				if err != nil {
					return usageError{fmt.Errorf("--since: %w", err)}
				}
				req.Since = t
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			if req.Paths, err = repoPaths(s.Dir(), s.Prefix(), req.Paths); err != nil {
				return usageError{err}
			}
			progress, finish := e.indexProgress()
			eng := retrieve.Open(s, retrieve.Options{Progress: progress})
			defer eng.Close()
			req.K, req.Budget, req.Also = k, budget, also
			res, err := eng.Query(e.ctx, req)
			finish()
			if err != nil {
				return err
			}
			ingest.RecordGap(s, res)
			if err := e.emit(res, func(w io.Writer) { renderResult(w, res, 0) }); err != nil {
				return err
			}
			if failInsufficient && !res.Sufficient {
				return exitError{exitFailure}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&k, "k", retrieve.DefaultK, "at most this many excerpts")
	cmd.Flags().BoolVar(&failInsufficient, "fail-insufficient", false, "exit 1 when the space does not answer the question (for scripts)")
	cmd.Flags().IntVar(&budget, "budget", retrieve.DefaultBudget, "context budget in tokens (about 4 characters each)")
	cmd.Flags().StringArrayVar(&req.Paths, "path", nil, "a file you are about to change, relative to the code repository's root (repeatable)")
	cmd.Flags().StringArrayVar(&req.Topics, "topic", nil, "only pages of this topic (repeatable)")
	cmd.Flags().StringArrayVar(&req.Kinds, "kind", nil, "only pages of this kind: source, source_summary, page, synthesis, retrospective (repeatable)")
	cmd.Flags().StringVar(&since, "since", "", "only pages updated (else created) on or after this date, 2026-11-01 or an RFC 3339 time")
	cmd.Flags().StringArrayVar(&also, "also", nil, "an alternative phrasing or keywords, searched beside the question (repeatable)")
	return cmd
}

// parseDate reads a date or an RFC 3339 time.
func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (2026-11-01) or an RFC 3339 time", s)
	}
	return t, nil
}

// repoPaths makes --path values relative to the code repository's root: a
// relative one is taken as given, an absolute one must lie in the work tree
// of the repository holding the space at dir.
func repoPaths(dir, prefix string, paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if filepath.IsAbs(p) && dir != "" {
			rel, err := filepath.Rel(repoRoot(dir, prefix), p)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, fmt.Errorf("--path %s is outside the code repository", p)
			}
			p = filepath.ToSlash(rel)
		}
		out = append(out, p)
	}
	return out, nil
}

// questionArg takes one question; several words unquoted are most likely
// a question the shell split, so the error says to quote it.
func questionArg(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageError{fmt.Errorf("%s takes one question, got %d words: quote it, as in pt %s %q", cmd.Name(), len(args), cmd.Name(), strings.Join(args, " "))}
	}
	return argsN(0, 1)(cmd, args)
}

// renderResult renders a retrieval result for people: each excerpt with
// the page and the revision it was read at. clip > 0 shortens each excerpt
// to one line of at most clip characters (the demo).
func renderResult(w io.Writer, res *retrieve.Result, clip int) {
	if !res.Sufficient {
		fmt.Fprintln(w, "insufficient: the space does not cover this question's subject")
		if res.Trace.Reason != "" {
			fmt.Fprintf(w, "(%s)\n", res.Trace.Reason)
		}
		if len(res.Nearest) > 0 {
			fmt.Fprintln(w, "nearest pages:")
			for _, n := range res.Nearest {
				fmt.Fprintf(w, "  %s — %s: %s\n", n.Path, n.Title, n.Summary)
			}
		}
		return
	}
	fmt.Fprintf(w, "%s, about %d tokens, coverage %.2f", count(len(res.Results), "excerpt"), res.Tokens, res.Coverage)
	if len(res.Trace.Topics) > 0 {
		fmt.Fprintf(w, "; topics: %s", strings.Join(res.Trace.Topics, ", "))
	}
	if len(res.Trace.Expanded) > 0 {
		fmt.Fprintf(w, "; also searched as: %s", strings.Join(res.Trace.Expanded, ", "))
	}
	fmt.Fprintln(w)
	for _, r := range res.Trace.Superseded {
		fmt.Fprintf(w, "%s is superseded: answered from %s\n", r.From, r.To)
	}
	if len(res.MissingTerms) > 0 {
		fmt.Fprintf(w, "no excerpt mentions: %s (check that the excerpts state what you need)\n", strings.Join(res.MissingTerms, ", "))
	}
	for i, h := range res.Results {
		loc := h.Path
		if h.Anchor != "" {
			loc += "#" + h.Anchor
		}
		fmt.Fprintf(w, "\n%d. %s — %s@%s", i+1, h.Title, loc, short(h.Revision))
		if h.NeedsReview {
			fmt.Fprint(w, "  [needs review]")
		}
		fmt.Fprintln(w)
		if clip > 0 {
			fmt.Fprintln(w, "   "+clipLine(h.Excerpt, clip))
			continue
		}
		for _, l := range strings.Split(h.Excerpt, "\n") {
			fmt.Fprintln(w, "   "+l)
		}
	}
}

// clipLine joins s into one line of at most n characters.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
