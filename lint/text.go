package lint

import (
	"fmt"
	"io"
	"strings"
)

// WriteText renders reports for people: the open findings grouped by page
// (repository-relative paths, so they can be opened from the repository
// root), each ending in its id (what pt curate --propose takes), then one
// summary line per space.
func WriteText(w io.Writer, reports []*Report) error {
	ew := &errWriter{w: w}
	for _, r := range reports {
		last := ""
		for _, f := range r.Open() {
			p := repoPath(r.Space, f.Path)
			if p != last {
				ew.printf("%s\n", p)
				last = p
			}
			line := ""
			if f.Line > 0 {
				line = fmt.Sprint(f.Line)
			}
			ew.printf("  %5s  %-7s  %-19s  %s  [%s]\n", line, f.Severity, f.Check, f.Message, f.ID)
		}
	}
	for _, r := range reports {
		ew.printf("%s\n", r.Summary())
	}
	return ew.err
}

// Summary is the one-line account of a run: what is open, what changed,
// what was written.
func (r *Report) Summary() string {
	open := r.Open()
	counts := map[string]int{}
	for _, f := range open {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []string{SeverityError, SeverityWarning, SeverityNote} {
		if n := counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s%s", n, s, plural(n)))
		}
	}
	name := r.Name
	if r.Space != "" {
		name += " (" + r.Space + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lint %s: %d open finding%s", name, len(open), plural(len(open)))
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, ", ") + ")")
	}
	fmt.Fprintf(&b, "; %d new, %d resolved", r.Change.Opened, r.Change.Resolved)
	if n := len(r.MarkedStale); n > 0 {
		fmt.Fprintf(&b, "; %d page%s marked stale", n, plural(n))
	}
	if r.CaughtUp {
		b.WriteString("; spokes caught up with pages edited in git")
	}
	switch {
	case r.DryRun:
		b.WriteString("; dry run, nothing written")
	case r.Batch != nil:
		fmt.Fprintf(&b, "; batch %s, commit %s", r.Batch.Batch, shortRev(r.Batch.Commit))
	default:
		b.WriteString("; nothing to commit")
	}
	return b.String()
}

func repoPath(space, p string) string {
	if space == "" {
		return p
	}
	return space + "/" + p
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
