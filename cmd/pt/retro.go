package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
)

func init() { register(newRetroCmd) }

func newRetroCmd(e *env) *cobra.Command {
	var r ingest.RetroRequest
	var now string
	cmd := &cobra.Command{
		Use:   "retro CYCLE",
		Short: "close a cycle: file its retrospective from the cycle's own statistics",
		Long: `retro counts what happened between --since (default: the previous
retrospective not reverted, else the beginning) and --until (default: HEAD): batches by
kind, pages added and changed, consults filed and skipped, lint findings
opened and resolved, the busiest topics; and files them as retros/CYCLE.md
(retros/CYCLE-2.md when another cycle's name has the same slug) in one
commit. A cycle is closed once: closing it again writes nothing.
Skipped consults are counted from this clone's local consult log.`,
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r.Cycle = args[0]
			if strings.TrimSpace(r.Cycle) == "" {
				return usageError{fmt.Errorf("retro: name the cycle")}
			}
			if now != "" {
				var err error
				if r.Now, err = parseClock(now); err != nil {
					return usageError{err}
				}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := ingest.Retro(e.ctx, s, r)
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printRetro(w, res) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&r.Since, "since", "", "the revision the cycle starts after (default: the previous retrospective not reverted)")
	f.StringVar(&r.Until, "until", "", "the revision the cycle ends at (default: HEAD)")
	f.StringVar(&now, "now", "", "the close's time, RFC 3339 or a date (default: now)")
	f.StringVar(&r.ApprovedBy, "approved-by", "", "who approved the close (recorded in the commit)")
	return cmd
}

func printRetro(w io.Writer, r *ingest.RetroResult) {
	if r.Verdict != ingest.VerdictFiled {
		fmt.Fprintf(w, "skipped (%s): %s\n", r.Gate, r.Reason)
		return
	}
	st := r.Stats
	fmt.Fprintf(w, "filed %s (batch %s, commit %s)\n", r.Page, r.Batch, short(r.Commit))
	kinds := make([]string, 0, len(st.Batches))
	for k, n := range st.Batches {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	skipped := 0
	for _, n := range st.ConsultsSkipped {
		skipped += n
	}
	if len(kinds) == 0 {
		fmt.Fprintf(w, "  commits   %d\n", st.Commits)
	} else {
		fmt.Fprintf(w, "  commits   %d (%s)\n", st.Commits, strings.Join(kinds, ", "))
	}
	fmt.Fprintf(w, "  pages     %d added, %d changed, %d removed\n", st.PagesAdded, st.PagesChanged, st.PagesRemoved)
	fmt.Fprintf(w, "  consults  %d filed, %d skipped\n", st.ConsultsFiled, skipped)
	fmt.Fprintf(w, "  findings  %d opened, %d resolved, %d open\n", st.FindingsOpened, st.FindingsClosed, st.FindingsOpen)
}
