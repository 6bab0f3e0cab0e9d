package mcp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// The readable content of each tool result: the same data as its
// structured output, laid out for a model or a person to read.

func renderQuery(r *retrieve.Result) string {
	var b strings.Builder
	if !r.Sufficient {
		fmt.Fprintf(&b, "insufficient: the knowledge base does not cover the subject of %s", quoteClipped(r.Question, maxEcho))
		if r.Trace.Reason != "" {
			fmt.Fprintf(&b, " (%s)", r.Trace.Reason)
		}
		b.WriteString(". Say so rather than guess; if you find the answer elsewhere, consider filing it back.\n")
		if len(r.Nearest) > 0 {
			b.WriteString("Nearest pages (read_page one if it looks right):\n")
			for _, n := range r.Nearest {
				fmt.Fprintf(&b, "- %s — %s: %s\n", n.Path, n.Title, n.Summary)
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d excerpts, %d tokens, coverage %.2f", len(r.Results), r.Tokens, r.Coverage)
	if len(r.Trace.Topics) > 0 {
		fmt.Fprintf(&b, "; topics: %s", strings.Join(r.Trace.Topics, ", "))
	}
	b.WriteString(". Cite path@revision.\n")
	if len(r.MissingTerms) > 0 {
		fmt.Fprintf(&b, "No excerpt mentions: %s. Check that an excerpt states what you need before relying on it; say so if none does.\n", strings.Join(r.MissingTerms, ", "))
	}
	for _, r := range r.Trace.Superseded {
		fmt.Fprintf(&b, "%s is superseded: answered from %s.\n", r.From, r.To)
	}
	for i, h := range r.Results {
		fmt.Fprintf(&b, "\n[%d] %s@%s — %s", i+1, h.Path, short(h.Revision), h.Title)
		if h.Heading != "" && h.Heading != h.Title {
			fmt.Fprintf(&b, " › %s", h.Heading)
		}
		if h.NeedsReview {
			b.WriteString(" (needs review: open lint findings)")
		}
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(h.Excerpt))
		b.WriteString("\n")
	}
	return b.String()
}

// maxEcho bounds how much of a caller's text a result quotes back: the
// caller has it already, and a long one would fill the model's context.
const maxEcho = 200

// quoteClipped quotes s (escaping control characters) cut to at most max
// runes, saying how long it was when cut.
func quoteClipped(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d characters)", strconv.Quote(string(r[:max])), len(r))
}

func renderResult(r *wiki.Result) string {
	var b strings.Builder
	if r.Unchanged {
		fmt.Fprintf(&b, "%s: nothing to change; no commit was made\n", r.Kind)
	} else {
		fmt.Fprintf(&b, "%s batch %s: commit %s, %d paths\n", r.Kind, r.Batch, short(r.Commit), len(r.Pages))
	}
	for _, p := range r.Pages {
		verb := "wrote"
		if p.Deleted {
			verb = "deleted"
		}
		fmt.Fprintf(&b, "  %s %s %s", verb, p.Role, p.Path)
		if p.Revision != "" {
			fmt.Fprintf(&b, "@%s", short(p.Revision))
		}
		b.WriteString("\n")
	}
	for _, x := range r.Revised {
		fmt.Fprintf(&b, "  revised %s (was %s)\n", x.Path, short(x.From))
	}
	for _, s := range r.NotUpdated {
		fmt.Fprintf(&b, "  left alone %s: %s\n", s.Path, s.Reason)
	}
	return b.String()
}

func renderFindings(f *Findings) string {
	if len(f.Findings) == 0 {
		return "no findings\n"
	}
	var b strings.Builder
	for _, x := range f.Findings {
		loc := x.Path
		if x.Line > 0 {
			loc = fmt.Sprintf("%s:%d", x.Path, x.Line)
		}
		fmt.Fprintf(&b, "%s %s %s [%s, %s] %s\n", x.ID, loc, x.Check, x.Severity, x.Status, x.Message)
	}
	return b.String()
}

func renderLog(l *Log) string {
	if len(l.Commits) == 0 {
		return "no commits\n"
	}
	var b strings.Builder
	for _, c := range l.Commits {
		b.WriteString(c.LogLine() + "\n")
	}
	return b.String()
}

func renderPreview(d *Destructive) string {
	var b strings.Builder
	p := d.Preview
	fmt.Fprintf(&b, "preview of %s: nothing is written yet. Show it to the person; to go ahead, call %s again with the same arguments and confirm_token %s (until %s).\n", p.What, p.Tool, d.ConfirmToken, d.Expires)
	for _, x := range p.Pages {
		owner := x.Owner.Name
		if owner == "" {
			owner = "no author"
		}
		if x.HumanOwned {
			owner += ", a person's page"
		}
		fmt.Fprintf(&b, "  %s %s", x.Action, x.Path)
		if x.Status != "" {
			fmt.Fprintf(&b, " → %s", x.Status)
		}
		fmt.Fprintf(&b, " (%s)\n", owner)
	}
	return b.String()
}
