package ingest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// mergedHeading opens, in the surviving page, the lines kept from the page
// it supersedes.
const mergedHeading = "## Merged from "

// mergeFix supersedes one page of a merge candidate by the other, and
// keeps in the survivor, under a heading of their own, the lines of the
// superseded page whose words the survivor mostly lacks, so that nothing
// it alone said is lost and the reviewer sees exactly what moves.
func mergeFix(f lint.Finding, links map[string]int, read func(string) (*wiki.PageAt, error)) (*curateFix, error) {
	a, err := read(f.Path)
	if err != nil {
		return nil, err
	}
	b, err := read(f.Target)
	if err != nil {
		return nil, err
	}
	keep, drop, why := survivor(a, b, links)
	lines := distinctLines(drop.Page.Body, keep.Page.Body)
	body := fmt.Sprintf("%s survives: %s.\n%s is superseded by it (status superseded, superseded_by %s).\n",
		keep.Path, why, drop.Path, keep.Path)
	if len(lines) == 0 {
		body += "Every line of " + drop.Path + " is already said by " + keep.Path + ".\n"
	} else {
		body += fmt.Sprintf("Lines of %s that %s lacks, appended to it under %q: %d. Keep, reword or drop them before approving.\n",
			drop.Path, keep.Path, mergedHeading+pageTitle(drop), len(lines))
	}
	body += "\n" + f.Message
	fx := &curateFix{title: "supersede " + drop.Path + " by " + keep.Path, body: body}
	fx.stage = func(ctx context.Context, tx *wiki.Tx) error {
		plan, err := planRetirement(ctx, tx.ReadPage, Retirement{Old: drop.Path, New: keep.Path})
		if err != nil {
			return err
		}
		appended := false
		for _, c := range plan.Pages {
			pg := c.page
			if c.Path == keep.Path && len(lines) > 0 {
				pg.Body = mergedBody(pg.Body, keep.Path, drop, lines)
				appended = true
			}
			if _, err := tx.Put(ctx, c.Path, pg, c.Role); err != nil {
				return err
			}
		}
		if !appended && len(lines) > 0 {
			pa, err := tx.ReadPage(ctx, keep.Path)
			if err != nil {
				return err
			}
			pg := *pa.Page
			pg.Body = mergedBody(pg.Body, keep.Path, drop, lines)
			if _, err := tx.Put(ctx, keep.Path, &pg, wiki.RoleSuccessor); err != nil {
				return err
			}
		}
		return nil
	}
	return fx, nil
}

// survivor picks which page of a pair survives: the one more pages link
// to; on a tie the longer (more words); then the more recently updated;
// then the first by path. It says why.
func survivor(a, b *wiki.PageAt, links map[string]int) (keep, drop *wiki.PageAt, why string) {
	if la, lb := links[a.Path], links[b.Path]; la != lb {
		if lb > la {
			a, b, la, lb = b, a, lb, la
		}
		return a, b, fmt.Sprintf("more pages link to it (%d, against %d)", la, lb)
	}
	if wa, wb := len(bytes.Fields(a.Page.Body)), len(bytes.Fields(b.Page.Body)); wa != wb {
		if wb > wa {
			a, b, wa, wb = b, a, wb, wa
		}
		return a, b, fmt.Sprintf("as many pages link to each, and it is longer (%d words, against %d)", wa, wb)
	}
	ta, tb := touched(a.Page.Meta), touched(b.Page.Meta)
	if !ta.Equal(tb) {
		if tb.After(ta) {
			a, b, ta, tb = b, a, tb, ta
		}
		return a, b, fmt.Sprintf("as many links and words, and it is newer (updated %s, against %s)", ta.Format("2006-01-02"), tb.Format("2006-01-02"))
	}
	return a, b, "as many links and words and as new: the first by path"
}

// touched is when a page was last updated, else created.
func touched(m content.Meta) time.Time {
	if !m.Updated.IsZero() {
		return m.Updated
	}
	return m.Created
}

// distinctLines are the prose lines of drop (not headings, blank lines or
// code) of which fewer than three words in four are words of keep.
func distinctLines(drop, keep []byte) []string {
	have := map[string]bool{}
	for _, w := range lineWords(string(keep)) {
		have[w] = true
	}
	var out []string
	fence := false
	for _, l := range strings.Split(string(drop), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") {
			continue
		}
		ws := lineWords(t)
		n := 0
		for _, w := range ws {
			if have[w] {
				n++
			}
		}
		if len(ws) > 0 && 4*n < 3*len(ws) {
			out = append(out, t)
		}
	}
	return out
}

func lineWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// mergedBody is keep's body with drop's distinct lines appended under a
// heading that links to drop (which the successor may cite: it lists it
// in supersedes). Each line becomes a list item unless it is one.
func mergedBody(body []byte, keepPath string, drop *wiki.PageAt, lines []string) []byte {
	var b bytes.Buffer
	b.Write(bytes.TrimRight(body, "\n"))
	fmt.Fprintf(&b, "\n\n%s[%s](%s)\n\n", mergedHeading, content.EscapeInline(pageTitle(drop)), linkTarget(content.RelLink(keepPath, drop.Path)))
	for _, l := range lines {
		if !listItem(l) {
			l = "- " + l
		}
		b.WriteString(l + "\n")
	}
	return b.Bytes()
}

// listItem reports whether a line is a Markdown list item already.
func listItem(l string) bool {
	if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "+ ") {
		return true
	}
	i := strings.IndexFunc(l, func(r rune) bool { return r < '0' || r > '9' })
	return i > 0 && strings.HasPrefix(l[i:], ". ")
}

// pageTitle is a page's title, else its first H1, else one made from its
// path.
func pageTitle(pa *wiki.PageAt) string {
	if t := sourceTitle("", pa.Page); t != "" {
		return t
	}
	return content.TitleFromPath(pa.Path)
}
