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

// demo runs the demo's steps on one space, printing each as the real
// command would: the same renderers, so the lines read alike.
type demo struct {
	ctx  context.Context
	w    io.Writer
	s    *wiki.Space
	eng  *retrieve.Engine
	who  wiki.Author
	when time.Time // the demo's start; its space's clock steps a minute a batch

	ingested string // the batch the demo ingests and later reverts
}

func (d *demo) step(format string, a ...any) { fmt.Fprintf(d.w, "\n== "+format+"\n", a...) }

// say explains a step in a sentence or two, as a comment line.
func (d *demo) say(lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(d.w, "# "+l)
	}
}

func runDemo(ctx context.Context, w io.Writer, dir string, kept bool, now time.Time) error {
	d := &demo{ctx: ctx, w: w, who: wiki.Author{Name: "dana", Kind: "human"}, when: now.UTC()}
	kb := filepath.Join(dir, "kb")
	d.step("pt init %s", kb)
	d.say("A space is a folder of Markdown pages in a git repository. Every change pt makes is a batch: one commit.")
	s, res, err := wiki.Init(ctx, kb, wiki.InitOptions{Name: "payments-team", Author: d.who, When: d.when,
		Clock: wiki.SteppingClock(d.when, time.Minute)})
	if err != nil {
		return err
	}
	defer s.Close()
	d.s = s
	d.eng = retrieve.Open(s, retrieve.Options{})
	defer d.eng.Close()
	fmt.Fprintf(w, "created space %q in %s (commit %s)\n", s.Config().Name, kb, short(res.Commit))
	for _, f := range []func(dir string) error{d.importNotes, d.ingestDecision, d.ask, d.consult, d.revertAndLint} {
		if err := f(dir); err != nil {
			return err
		}
	}
	d.step("pt log")
	cs, err := s.History(ctx, "", 0)
	if err != nil {
		return err
	}
	printLog(w, cs)
	if kept {
		fmt.Fprintf(w, "\nEvery batch above is one git commit of %s; inspect it with git log.\n", kb)
	} else {
		fmt.Fprintf(w, "\nEvery batch above was one git commit of a temporary space, now removed; rerun with --keep DIR to inspect it with git log.\n")
	}
	return nil
}

func (d *demo) importNotes(dir string) error {
	notes := filepath.Join(dir, "notes")
	if err := os.CopyFS(notes, starter.Demo()); err != nil {
		return err
	}
	names, _ := fs.Glob(starter.Demo(), "*.md")
	d.step("pt import notes/ --approved-by dana   (%d Markdown files of a payments team)", len(names))
	d.say("Each file becomes a source, kept verbatim, and a summary pinned to it; both are filed under topics.")
	imp, err := ingest.Import(d.ctx, d.s, notes, ingest.ImportOptions{ApprovedBy: "dana", Author: d.who, When: d.s.Now()})
	if err != nil {
		return err
	}
	printImport(d.w, imp)
	d.step("pt topics")
	d.say("The hub, index.md, lists the topics, one line each. Each topic has a spoke, topics/<topic>.md, that lists",
		"its pages with a one-line summary. A question reads the hub, then a spoke or two, then a few pages' sections.")
	ps, err := d.s.Catalog(d.ctx, "", wiki.PageFilter{})
	if err != nil {
		return err
	}
	printTopics(d.w, &topicList{Topics: wiki.TopicCounts(ps)})
	return nil
}

func (d *demo) ingestDecision(string) error {
	related := "summaries/2026-11-weekly-sync.md"
	d.step("pt ingest decision.md --kind decision --related %s --approved-by dana", related)
	d.say("A new source, approved by a person. Fan-out: a page it relates to gets a link back to it in the same",
		"commit (pages a person owns are never rewritten by pt; they only get lint findings).")
	ing, err := ingest.Ingest(d.ctx, d.s, ingest.Source{Body: []byte(demoSource), Kind: "decision", Slug: "decision",
		Related: []string{related}, ApprovedBy: "dana", Author: d.who, When: d.s.Now()})
	if err != nil {
		return err
	}
	d.ingested = ing.Batch
	printIngest(d.w, ing)
	return nil
}

func (d *demo) ask(string) error {
	for _, q := range []string{
		"Why must payment endpoints require an idempotency key?",
		"How do I replay the ledger write queue after an outage?",
		"Do refunds go through the write queue?",
		"What is our policy on parental leave?",
	} {
		d.step("pt query-kb %q", q)
		r, err := d.eng.Query(d.ctx, retrieve.Request{Question: q, K: 3, Budget: 1200})
		if err != nil {
			return err
		}
		renderResult(d.w, r, 150)
	}
	return nil
}

func (d *demo) consult(string) error {
	q := "What did we change after the ledger outage of September 2026?"
	d.step("pt consult %q", q)
	d.say("A consult is a question and its answer. It is filed back as a synthesis page, so the next question builds",
		"on it, only when it passes the gates: classification (only UNCLASSIFIED pages), durability (plans and status",
		"are never filed), citations (an answer must cite pages), and no echo or near-duplicate of a page already here.")
	d.say("Here an agent's answer, citing the postmortem and the decision, is filed.")
	v, err := ingest.FileBack(d.ctx, d.s, ingest.Consult{Question: q, Answer: demoAnswer,
		Citations: []string{"sources/2026-09-postmortem-ledger-outage.md", "sources/decision.md"},
		AskedBy:   "dana", Author: wiki.Author{Name: "claude", Kind: "agent"}, Retriever: d.eng})
	if err != nil {
		return err
	}
	printVerdict(d.w, clipVerdict(v))
	q = "What should Jonas work on next week?"
	d.step("pt consult %q", q)
	d.say("Who should do what next is live state, not knowledge: the durability gate skips it.")
	v, err = ingest.FileBack(d.ctx, d.s, ingest.Consult{Question: q, AskedBy: "dana", Author: d.who, Retriever: d.eng})
	if err != nil {
		return err
	}
	printVerdict(d.w, clipVerdict(v))
	return nil
}

// clipVerdict shortens a verdict's answer to its first lines for the demo.
func clipVerdict(v *ingest.Verdict) *ingest.Verdict {
	out := *v
	if lines := strings.Split(strings.TrimSpace(out.Answer), "\n"); len(lines) > 4 {
		out.Answer = strings.Join(lines[:4], "\n") + "\n…"
	}
	return &out
}

func (d *demo) revertAndLint(string) error {
	d.step("pt revert %s --approved-by dana", d.ingested)
	d.say("A batch is undone as a unit, by one new commit.")
	rv, err := d.s.Revert(d.ctx, d.ingested, wiki.RevertOptions{ApprovedBy: "dana", Author: d.who, When: d.s.Now()})
	if err != nil {
		return err
	}
	printResult(d.w, rv)
	d.step("pt lint")
	d.say("Lint checks the space mechanically and records what it finds; it never deletes or rewrites a page.")
	rep, err := lint.Run(d.ctx, d.s, lint.Options{Now: d.s.Now(), Author: d.who})
	if err != nil {
		return err
	}
	if err := lint.WriteText(d.w, []*lint.Report{rep}); err != nil {
		return err
	}
	if len(rep.Open()) == 0 {
		return nil
	}
	q := "What did we change after the ledger outage of September 2026?"
	d.step("pt query-kb %q", q)
	d.say("The synthesis filed above cites the decision the revert removed: its provenance drifted, so it is",
		"returned with needs review until someone fixes or retracts it.")
	r, err := d.eng.Query(d.ctx, retrieve.Request{Question: q, K: 3, Budget: 1200})
	if err != nil {
		return err
	}
	renderResult(d.w, r, 150)
	return nil
}
