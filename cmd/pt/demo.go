package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content/starter"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newDemoCmd) }

// demoSource is the source the demo ingests on top of the starter knowledge,
// and then reverts.
const demoSource = `# Decision: refunds share the durable write queue

Date: 2026-11-25. Deciders: Mei Lin, Jonas Weber.

## Context

Refunds were written straight to the ledger database. During the September
ledger outage eleven refunds failed and had to be re-entered by hand.

## Decision

Decision: refunds go through the same durable write queue as payments, with a
separate consumer group, so a backlog of payments never delays a refund.

## Action items

- [ ] Jonas will add the refund consumer group before 2026-12-05.
`

// demoAnswer is an agent's answer to the demo's consult: in its own words,
// joining the postmortem and the new decision, so it files back.
const demoAnswer = `Two things changed. Migrations can no longer stall ledger writes: an index
on a table of more than a million rows is built concurrently in a migration
of its own, and every migration runs with a five-second lock timeout, so a
blocked one fails instead of holding writers. And refunds, eleven of which
had to be re-entered by hand after the outage, now go through the durable
write queue like payments, on a consumer group of their own.`

func newDemoCmd(e *env) *cobra.Command {
	var keep string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "run pt end to end on a temporary space built from the embedded demo knowledge",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := keep
			if dir == "" {
				tmp, err := os.MkdirTemp("", "pt-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				dir = tmp
			}
			return runDemo(e.ctx, e.stdout, dir, keep != "", e.now())
		},
	}
	cmd.Flags().StringVar(&keep, "keep", "", "build the demo space in this directory and keep it")
	return cmd
}

func runDemo(ctx context.Context, w io.Writer, dir string, kept bool, now time.Time) error {
	step := func(format string, a ...any) { fmt.Fprintf(w, "\n== "+format+"\n", a...) }
	who := wiki.Author{Name: "dana", Kind: "human"}
	when := now.UTC()

	kb := filepath.Join(dir, "kb")
	step("pt init %s", kb)
	s, res, err := wiki.Init(ctx, kb, wiki.InitOptions{Name: "payments-team", Author: who, When: when})
	if err != nil {
		return err
	}
	defer s.Close()
	eng := retrieve.Open(s, retrieve.Options{})
	defer eng.Close()
	fmt.Fprintf(w, "created space %q: commit %s (kb.yaml, index.md, log.md)\n", s.Config().Name, short(res.Commit))

	notes := filepath.Join(dir, "notes")
	if err := os.CopyFS(notes, starter.Demo()); err != nil {
		return err
	}
	names, _ := fs.Glob(starter.Demo(), "*.md")
	step("pt import notes/ (%d Markdown files of a payments team)", len(names))
	imp, err := ingest.Import(ctx, s, notes, ingest.ImportOptions{ApprovedBy: "dana", Author: who, When: when})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "import batch %s: commit %s, %d sources with summaries, %d paths written in one commit\n",
		imp.Batch, short(imp.Commit), imp.Imported, len(imp.Pages))

	step("pt ingest: a new decision, approved by dana")
	ing, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Decision: refunds share the write queue", Body: []byte(demoSource),
		Kind: "decision", ApprovedBy: "dana", Author: who, When: when.Add(time.Minute)})
	if err != nil {
		return err
	}
	printResult(w, ing)

	for _, q := range []string{
		"Why must payment endpoints require an idempotency key?",
		"How do I replay the ledger write queue after an outage?",
		"Do refunds go through the write queue?",
		"What is our policy on parental leave?",
	} {
		step("pt query-kb %q", q)
		r, err := eng.Query(ctx, retrieve.Request{Question: q, K: 3, Budget: 1200})
		if err != nil {
			return err
		}
		printQuery(w, r, 160)
	}

	step("pt consult --answer: file an agent's answer back as a synthesis page, if it passes the gates")
	v, err := ingest.FileBack(ctx, s, ingest.Consult{Question: "What did we change after the ledger outage of September 2026?",
		Answer: demoAnswer, Citations: []string{"sources/2026-09-postmortem-ledger-outage.md", "sources/decision-refunds-share-the-write-queue.md"},
		AskedBy: "dana", Author: who, When: when.Add(2 * time.Minute), Retriever: eng, Model: ingest.ModelFromEnv(os.Getenv)})
	if err != nil {
		return err
	}
	if v.Verdict == "filed" {
		fmt.Fprintf(w, "filed %s in batch %s (%d citations, %s)\n", v.Page, v.Batch, len(v.Citations), v.Durability)
	} else {
		fmt.Fprintf(w, "skipped by the %s gate: %s\n", v.Gate, v.Reason)
	}

	step("pt revert %s", ing.Batch)
	rv, err := s.Revert(ctx, ing.Batch, wiki.RevertOptions{ApprovedBy: "dana", Author: who, When: when.Add(3 * time.Minute)})
	if err != nil {
		return err
	}
	printResult(w, rv)
	r, err := eng.Query(ctx, retrieve.Request{Question: "Do refunds go through the write queue?", K: 3, Budget: 1200})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "after the revert, the decision page is gone: top result now %s\n", topPath(r))

	step("pt lint")
	rep, err := lint.Run(ctx, s, lint.Options{Now: when.Add(4 * time.Minute), Author: who})
	if err != nil {
		return err
	}
	if err := lint.WriteText(w, []*lint.Report{rep}); err != nil {
		return err
	}
	if len(rep.Open()) > 0 {
		fmt.Fprintln(w, "lint noticed that the synthesis filed above cites the decision the revert removed: its provenance")
		fmt.Fprintln(w, "drifted, so retrieval now returns it with needs_review until someone fixes or retracts it.")
		q := "What did we change after the ledger outage of September 2026?"
		step("pt query-kb %q", q)
		r, err := eng.Query(ctx, retrieve.Request{Question: q, K: 3, Budget: 1200})
		if err != nil {
			return err
		}
		printQuery(w, r, 120)
	}

	step("pt log")
	cs, err := s.History(ctx, "", 0)
	if err != nil {
		return err
	}
	for _, c := range cs {
		fmt.Fprintf(w, "%s  %s\n", short(c.Hash), c.Subject)
	}
	if kept {
		fmt.Fprintf(w, "\nEvery batch above is one git commit of %s; inspect it with git log.\n", kb)
	} else {
		fmt.Fprintf(w, "\nEvery batch above was one git commit of a temporary space, now removed; rerun with --keep DIR to inspect it with git log.\n")
	}
	return nil
}

func topPath(r *retrieve.Result) string {
	if len(r.Results) == 0 {
		return "(nothing: insufficient)"
	}
	return r.Results[0].Path
}

// printQuery renders a retrieval result for people: each excerpt with the
// page and revision it was read at.
func printQuery(w io.Writer, r *retrieve.Result, width int) {
	if !r.Sufficient || len(r.Results) == 0 {
		fmt.Fprintf(w, "insufficient: the space does not hold an answer (%d topics, %d pages read)\n", len(r.Trace.Topics), r.Trace.PagesRead)
		return
	}
	fmt.Fprintf(w, "sufficient, %d tokens, topics %s\n", r.Tokens, strings.Join(r.Trace.Topics, ", "))
	for i, h := range r.Results {
		ex := strings.Join(strings.Fields(h.Excerpt), " ")
		if width > 0 && len(ex) > width {
			ex = ex[:width] + "…"
		}
		review := ""
		if h.NeedsReview {
			review = " (needs review)"
		}
		fmt.Fprintf(w, "%d. %s@%s%s\n   %s\n", i+1, h.Path, short(h.Revision), review, ex)
	}
}
