package ingest

import (
	"context"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// fanOut links a related page back to a new summary: one line in the
// page's "Related" section, created at the end of the page when it has
// none. A page owned by a person (author.kind human, or no author at all:
// a page committed with git) is never rewritten by pt: it is recorded as
// skipped with the reason, and the result lists it. A page that already
// links to the summary is left as it is.
func fanOut(ctx context.Context, tx *wiki.Tx, p, target, title, line string) error {
	pa, err := tx.ReadPage(ctx, p)
	if err != nil {
		return err
	}
	if pa.Page.Meta.OwnedByHuman() {
		tx.Skip(p, "human-owned: pt never rewrites a page a person owns; add a link to "+target+" by hand if it belongs there")
		return nil
	}
	for _, l := range content.Analyze(pa.Page.Body).Links {
		if t, ok := l.Resolve(p); ok && t == target {
			return nil
		}
	}
	entry := "- [" + content.EscapeInline(title) + "](" + linkDest(content.RelLink(p, target)) + ")"
	if line = content.EscapeInline(line); line != "" {
		entry += " — " + line
	}
	pa.Page.Body = []byte(addRelated(string(pa.Page.Body), entry))
	pa.Page.Meta.Updated = tx.Batch().When
	_, err = tx.Put(ctx, p, pa.Page, wiki.RoleFanOut)
	return err
}

// addRelated appends entry to the body's Related section (a heading whose
// text is "Related", any level, any case), after its last non-blank line;
// a body without one gets a "## Related" section at its end.
func addRelated(body, entry string) string {
	s := content.Analyze([]byte(body))
	lines := strings.SplitAfter(body, "\n")
	for i, h := range s.Headings {
		t := strings.ToLower(strings.TrimSpace(h.Text))
		if t != "related" && t != "related pages" && t != "see also" {
			continue
		}
		end := len(lines) // exclusive, 0-based: the section runs to the next heading of its level or higher
		for _, n := range s.Headings[i+1:] {
			if n.Level <= h.Level {
				end = n.Line - 1
				break
			}
		}
		last := h.Line // 1-based line of the heading
		for j := h.Line; j < end && j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) != "" {
				last = j + 1
			}
		}
		if last > 0 && last <= len(lines) && !strings.HasSuffix(lines[last-1], "\n") {
			lines[last-1] += "\n"
		}
		insert := entry + "\n"
		if last == h.Line {
			insert = "\n" + insert
		}
		out := strings.Join(lines[:last], "") + insert + strings.Join(lines[last:], "")
		return out
	}
	body = strings.TrimRight(body, "\n")
	if body != "" {
		body += "\n\n"
	}
	return body + "## Related\n\n" + entry + "\n"
}
