package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newConsultCmd) }

func newConsultCmd(e *env) *cobra.Command {
	var answerFile, durability, askedBy, now string
	var cites []string
	cmd := &cobra.Command{
		Use:   "consult QUESTION",
		Short: "answer a question from the space and file the answer back when it passes the gates",
		Long: `consult retrieves what the space knows about QUESTION. With --answer, the
answer is yours (cite the pages it used with --cite); without it, pt composes
one with the model at $PT_LLM_URL, or else quotes the top excerpts. The answer
is then gated (classification, durability, citations, echo, near-duplicate)
and filed back as a synthesis page in one commit, or skipped with the reason.
Quoted excerpts are returned but never filed: they only repeat the pages.
A skipped consult writes nothing and still exits 0.`,
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c := ingest.Consult{Question: args[0], Citations: cites, Durability: durability, AskedBy: askedBy, Author: e.identity()}
			if strings.TrimSpace(args[0]) == "" {
				return usageError{errors.New("consult: empty question")}
			}
			if err := ingest.CheckDurability(durability); err != nil {
				return usageError{fmt.Errorf("--durability: %w", err)}
			}
			if answerFile != "" {
				a, err := readAnswer(e, answerFile)
				if err != nil {
					return err
				}
				c.Answer = a
			}
			if now != "" {
				t, err := parseClock(now)
				if err != nil {
					return usageError{err}
				}
				c.When = t
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			eng := retrieve.Open(s, retrieve.Options{})
			defer eng.Close()
			c.Retriever, c.Model = eng, ingest.ModelFromEnv(os.Getenv)
			v, err := ingest.FileBack(e.ctx, s, c)
			if err != nil {
				return err
			}
			return e.emit(v, func(w io.Writer) { printVerdict(w, v) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&answerFile, "answer", "", "the answer, from a file or - for stdin (default: pt composes one)")
	f.StringArrayVar(&cites, "cite", nil, "a page the answer used (repeatable)")
	f.StringVar(&durability, "durability", "", "durable, time_bound or ephemeral (pt also decides; the shorter-lived wins)")
	f.StringVar(&askedBy, "asked-by", "", "who asked, for the synthesis page's provenance")
	f.StringVar(&now, "now", "", "the consult's time, RFC 3339 or a date (default: now)")
	return cmd
}

// readAnswer reads --answer from a file or stdin, reading one byte past the
// limit so that FileBack reports the size without a huge file read whole.
func readAnswer(e *env, name string) (string, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", fmt.Errorf("--answer: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, ingest.MaxAnswerBytes+1))
	if err != nil {
		return "", fmt.Errorf("--answer %s: %w", name, err)
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", usageError{fmt.Errorf("--answer %s: empty answer (leave out --answer to let pt compose one)", name)}
	}
	return string(data), nil
}

// parseClock reads --now: RFC 3339 or a date, within the years pt accepts.
func parseClock(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return time.Time{}, fmt.Errorf("--now %q: use RFC 3339 (2027-03-01T12:00:00Z) or a date (2027-03-01)", s)
		}
	}
	if err := ingest.CheckClock(t); err != nil {
		return time.Time{}, fmt.Errorf("--now: %w", err)
	}
	return t, nil
}

// printVerdict renders a consult's verdict for people: what happened and
// why on one line. A filed answer follows with what it cites; a skipped
// one only when pt composed it (the caller has never seen it), since a
// caller's own answer needs no echo.
func printVerdict(w io.Writer, v *ingest.Verdict) {
	switch v.Verdict {
	case ingest.VerdictFiled:
		fmt.Fprintf(w, "filed %s (batch %s, commit %s): %s\n", v.Page, v.Batch, short(v.Commit), v.Reason)
	case ingest.VerdictProposed:
		fmt.Fprintf(w, "proposed %s on %s: pt approve %s lands it\n", v.Page, v.Proposal, v.Batch)
	default:
		fmt.Fprintf(w, "skipped (%s): %s\n", v.Gate, v.Reason)
	}
	if v.ModelError != "" {
		fmt.Fprintf(w, "note: the model was not used (%s); the answer is extractive\n", v.ModelError)
	}
	if v.Verdict != ingest.VerdictFiled && v.AnswerBy == ingest.AnswerByCaller {
		return
	}
	if v.Answer != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(v.Answer))
	}
	if len(v.Citations) > 0 {
		fmt.Fprintln(w, "\ncitations:")
		for _, c := range v.Citations {
			fmt.Fprintf(w, "  %s @ %s\n", c.Path, short(c.Revision))
		}
	}
}
