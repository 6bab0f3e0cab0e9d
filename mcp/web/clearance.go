package web

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/mcp"
	"github.com/ptwiki/pt/wiki"
)

// The web view applies a reader's clearance as the MCP tools do: a page
// above it is not found, and no list names it (folders, spokes, the log,
// batches and their diffs, findings, agents' consults, search).

// readerIn is the reader of the request whose context ctx is.
func readerIn(ctx context.Context) mcp.Reader {
	si, _ := ctx.Value(signedInKey{}).(signedIn)
	return si.reader
}

// hidden is the error of a page that does not exist at rev, or that the
// reader may not read: one message for both, so that it does not tell
// that a page exists.
func hidden(p string, rev wiki.Rev) error {
	return fmt.Errorf("%s: no such page at commit %s: %w", p, short(string(rev)), wiki.ErrNotFound)
}

// sees reports whether the request's reader may read path p at every one
// of revs where p is a page; a file that is not a page there hides nothing.
func (site *Site) sees(ctx context.Context, p string, revs ...wiki.Rev) bool {
	rd := readerIn(ctx)
	if rd.Owner || !strings.HasSuffix(p, ".md") {
		return true
	}
	for _, rev := range revs {
		if rev == "" {
			continue
		}
		pa, err := site.space.ReadPage(ctx, rev, p)
		if err == nil && !rd.Sees(ctx, site.space, rev, pa) {
			return false
		}
	}
	return true
}

// redact drops the lines of an index page's text at rev that name a page
// the request's reader may not read; other pages are returned as they are.
func (site *Site) redact(ctx context.Context, rev wiki.Rev, p, text string) string {
	if !wiki.IsIndexPage(p) {
		return text
	}
	return readerIn(ctx).RedactIndex(ctx, site.space, rev, p, text)
}

// visibleFindings are the findings about pages the reader may read at head.
func (site *Site) visibleFindings(ctx context.Context, head wiki.Rev, fs []lint.Finding) []lint.Finding {
	var out []lint.Finding
	seen := map[string]bool{}
	for _, f := range fs {
		ok, known := seen[f.Path]
		if !known {
			ok = site.sees(ctx, f.Path, head)
			seen[f.Path] = ok
		}
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// redactDiff drops from a diff of an index page the lines that name a
// page the reader may not read (removed lines as of before, added ones as
// of after), and those that name batch when it is not "" (the log's entry
// of a batch the reader may not see carries its title). A hunk left with
// no change is dropped.
func (site *Site) redactDiff(ctx context.Context, fd fileDiff, before, after wiki.Rev, batch string) fileDiff {
	if readerIn(ctx).Owner || !wiki.IsIndexPage(fd.Path) {
		return fd
	}
	var hunks []hunk
	for _, h := range fd.Hunks {
		var lines []diffLine
		changed := false
		for _, l := range h.Lines {
			rev := after
			if l.Op == "-" {
				rev = before
			}
			named := batch != "" && strings.Contains(l.Text, "`"+batch+"`")
			if named || rev != "" && site.redact(ctx, rev, fd.Path, l.Text) == "" && strings.TrimSpace(l.Text) != "" {
				switch l.Op {
				case "-":
					fd.Removed--
				case "+":
					fd.Added--
				}
				continue
			}
			changed = changed || l.Op != " "
			lines = append(lines, l)
		}
		if changed {
			hunks = append(hunks, hunk{Header: h.Header, Lines: lines})
		}
	}
	fd.Hunks = hunks
	return fd
}

// withheldBatch is the batch id of a row the reader may not see, else "".
func withheldBatch(row logRow) string {
	if row.Withheld {
		return row.Batch
	}
	return ""
}
