package retrieve

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// nearSummaryRune bounds a nearest page's summary.
const nearSummaryRune = 160

// nearest names the best candidates of an insufficient answer, one per page
// (a source and its summary are one page), with a one-line summary and no
// excerpt: the caller reads a page that looks right, and an answer the
// gate refused wrongly is a page away.
func nearest(ctx context.Context, s *wiki.Space, head wiki.Rev, cs []candidate) []Near {
	out := []Near{}
	for _, c := range cs {
		if len(out) == MaxNearest {
			break
		}
		out = append(out, Near{Path: c.sec.Path, Title: content.Inert(c.displayTitle()), Summary: content.Inert(oneLine(ctx, s, head, c))})
	}
	return out
}

// oneLine is what a candidate's page is about: its summary, else its
// summary page's (an imported source has one beside it), else its first
// sentence of text.
func oneLine(ctx context.Context, s *wiki.Space, head wiki.Rev, c candidate) string {
	if sum := strings.TrimSpace(c.page.Page.Meta.Summary); sum != "" {
		return clipLine(sum)
	}
	if rest, ok := strings.CutPrefix(c.sec.Path, "sources/"); ok {
		if pa, err := s.ReadPage(ctx, head, "summaries/"+rest); err == nil {
			if sum := strings.TrimSpace(pa.Page.Meta.Summary); sum != "" {
				return clipLine(sum)
			}
		}
	}
	return clipLine(firstSentence(string(c.page.Page.Body)))
}

// firstSentence is the first line of prose of a Markdown body, cut at its
// first sentence end: headings, fences, tables and lists are skipped.
func firstSentence(body string) string {
	fence := false
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fence = !fence
			continue
		}
		if fence || l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "|") || strings.HasPrefix(l, "<") || strings.HasPrefix(l, "---") {
			continue
		}
		if i := strings.Index(l, ". "); i > 0 {
			l = l[:i+1]
		}
		return l
	}
	return ""
}

// clipLine is s on one line, at most nearSummaryRune runes.
func clipLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= nearSummaryRune {
		return s
	}
	return clipRunes(s, nearSummaryRune)
}

// displayTitle is the page's title as its frontmatter or its file name
// gives it, without the folder words the index searches with it.
func (c candidate) displayTitle() string {
	if t := strings.TrimSpace(c.page.Page.Meta.Title); t != "" {
		return t
	}
	return content.TitleFromPath(c.sec.Path)
}
