package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/ingest"
)

func init() { register(newCaptureCmd) }

func newCaptureCmd(e *env) *cobra.Command {
	var title string
	cmd := &cobra.Command{
		Use:   "capture [FILE|-]",
		Short: "propose the lessons of an agent's output or session transcript for review",
		Long: "capture reads an agent's output, or a Claude Code or Codex session transcript (JSONL), from\n" +
			"FILE or stdin, and picks up [[REMEMBER: ...]] markers and explicit \"Lesson:\" lines. The\n" +
			"durable ones are proposed as one source on a branch of its own for a person to review\n" +
			"(pt proposals, pt approve ID, pt reject ID); plans, priorities and status are left out.",
		Args: argsN(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := "-"
			if len(args) == 1 {
				name = args[0]
			}
			data, err := readTranscript(e, name)
			if err != nil {
				return err
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := ingest.Capture(e.ctx, s, data, ingest.CaptureOptions{Name: name, Title: title, Author: e.identity()})
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printCapture(w, res) })
		},
	}
	cmd.Flags().StringVar(&title, "title", "", "the proposed source's title (default: Lessons from FILE)")
	return cmd
}

// readTranscript reads FILE or stdin, one byte past the limit so that a
// huge transcript is reported rather than read whole.
func readTranscript(e *env, name string) ([]byte, error) {
	r := e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, ingest.MaxTranscriptBytes+1))
}

func printCapture(w io.Writer, res *ingest.CaptureResult) {
	kept := 0
	for _, l := range res.Lessons {
		if l.Kept {
			kept++
		}
	}
	if res.Result == nil || res.Result.Unchanged {
		fmt.Fprintf(w, "nothing to propose: %d lessons found in the %s transcript, none kept\n", len(res.Lessons), res.Format)
	} else {
		fmt.Fprintf(w, "proposed %s on %s: %d of %d lessons (pt approve %s lands it)\n", res.Batch, res.Proposal, kept, len(res.Lessons), res.Batch)
	}
	for _, l := range res.Lessons {
		mark := "kept"
		if !l.Kept {
			mark = "left out (" + l.Reason + ")"
		}
		fmt.Fprintf(w, "  line %d, %s: %s — %s\n", l.Line, l.Marker, l.Text, mark)
	}
}
