package mcp

import (
	"context"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// redactIndex drops the lines of an index page (a spoke, the log) that
// link to a page above the caller's clearance, so that such a page is not
// even named to them.
func redactIndex(ctx context.Context, s *wiki.Space, head wiki.Rev, p, text string, who caller) string {
	drop := map[int]bool{}
	for _, l := range content.Analyze([]byte(text)).Links {
		t, in := l.Resolve(p)
		if !in || l.External || drop[l.Line] {
			continue
		}
		pa, err := s.ReadPage(ctx, head, t)
		if err == nil && !visible(ctx, s, head, pa, who) {
			drop[l.Line] = true
		}
	}
	if len(drop) == 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		if !drop[i+1] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// visible reports whether the caller may read a page: its classification,
// and for a summary its source's, which it restates.
func visible(ctx context.Context, s *wiki.Space, head wiki.Rev, pa *wiki.PageAt, who caller) bool {
	if who.owner {
		return true
	}
	if !who.cleared(s, pa.Page.Meta) {
		return false
	}
	if df := pa.Page.Meta.Provenance.DerivedFrom; pa.Page.Meta.Kind == content.KindSummary && len(df) > 0 {
		if src, err := s.ReadPage(ctx, head, df[0].Path); err == nil {
			return who.cleared(s, src.Page.Meta)
		}
	}
	return true
}
