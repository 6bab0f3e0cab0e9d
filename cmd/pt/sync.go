package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newSyncCmd) }

// syncMerges are the files pt writes from the pages that a sync merges
// when this clone and the remote both changed them, rather than stopping
// on a conflict: lint's findings.json, which two replicas that both lint
// change every time. Every sync pt runs (pt sync, pt serve, pt cron) uses
// them.
var syncMerges = map[string]wiki.MergeFunc{lint.FindingsPath: lint.MergeFindingsFiles}

// syncRetitles describe a batch rebuilt with a merged file (lint's counts).
var syncRetitles = map[string]wiki.RetitleFunc{lint.FindingsPath: lint.RetitleMerged}

func newSyncCmd(e *env) *cobra.Command {
	var opts wiki.SyncOptions
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "fetch the remote branch, rebuild local batches on it, push",
		Long: "sync makes the space's branch and its git remote agree: it fetches the remote branch,\n" +
			"rebuilds the batches that are only local on top of it (log, spokes and hub recomputed),\n" +
			"and pushes, retrying when someone pushed in between. It never forces a push.\n" +
			"The remote is --remote, else kb.yaml's remote:, else origin. Credentials: $PT_GIT_TOKEN\n" +
			"or $GIT_TOKEN for http(s), the ssh agent for ssh.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			opts.Committer = e.identity()
			opts.Merge, opts.Retitle = syncMerges, syncRetitles
			res, err := s.Sync(e.ctx, withGitAuth(opts))
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printSync(w, res) })
		},
	}
	cmd.Flags().StringVar(&opts.Remote, "remote", "", "remote name or URL (default kb.yaml remote:, else origin)")
	cmd.Flags().BoolVar(&opts.SetAside, "set-aside", false, "move local batches that conflict with the remote to refs/pt/set-aside/<batch> instead of stopping")
	return cmd
}

func printSync(w io.Writer, res *wiki.SyncResult) {
	if res.UpToDate() {
		fmt.Fprintf(w, "sync %s %s: up to date at %s\n", res.Remote, res.Branch, short(res.Head))
		return
	}
	fmt.Fprintf(w, "sync %s %s: received %d, pushed %d, now at %s\n", res.Remote, res.Branch, res.Received, res.Pushed, short(res.Head))
	if res.Created {
		fmt.Fprintf(w, "  created %s on %s\n", res.Branch, res.Remote)
	}
	for _, c := range res.Replayed {
		id := c.Batch
		if id == "" {
			id = "commit"
		}
		fmt.Fprintf(w, "  rebuilt  %s %s -> %s  %s\n", id, short(c.From), short(c.To), c.Subject)
	}
	for _, d := range res.Dropped {
		id := d.Batch
		if id == "" {
			id = "commit"
		}
		fmt.Fprintf(w, "  dropped  %s %s: already applied upstream  %s\n", id, short(d.Commit), d.Subject)
	}
	for _, a := range res.SetAside {
		fmt.Fprintf(w, "  set aside %s at %s: conflicts on %v\n", a.Batch, a.Ref, a.Paths)
	}
	if res.Rewritten != "" {
		fmt.Fprintf(w, "  note: the remote branch was rewritten; the previous local history is kept at %s\n", res.Rewritten)
	}
	for _, p := range res.WorktreeSkipped {
		fmt.Fprintf(w, "  note: %s has uncommitted edits in the work tree; left as it is\n", p)
	}
}

// droppedNote names, for the one-line sync reports of pt serve and pt cron,
// the local batches a sync dropped because the remote already held them.
func droppedNote(r *wiki.SyncResult) string {
	if len(r.Dropped) == 0 {
		return ""
	}
	ids := make([]string, len(r.Dropped))
	for i, d := range r.Dropped {
		ids[i] = d.Batch
		if ids[i] == "" {
			ids[i] = short(d.Commit)
		}
	}
	return fmt.Sprintf(", dropped %s (already applied upstream)", strings.Join(ids, ", "))
}
