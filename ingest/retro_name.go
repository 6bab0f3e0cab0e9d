package ingest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// retroTitlePrefix starts every retrospective's title; what follows it is
// the cycle's name as it was closed.
const retroTitlePrefix = "Retrospective: "

// maxRetroNames bounds the numbered names one slug can take.
const maxRetroNames = 1000

// retroPlace is where a cycle's retrospective is at one commit. Distinct
// names can share a slug ("C cycle" and "C++ cycle"), so a cycle's page is
// found by the name it records in its title, among retros/<slug>.md and
// retros/<slug>-N.md, not by its slug alone.
type retroPlace struct {
	page       string       // the cycle's page: where it is, or the first free name
	closed     *wiki.PageAt // the cycle's retrospective, when it is closed
	unreadable string       // a page of the family that does not parse: it may be the cycle's
}

// placeRetro finds cycle's retrospective at rev, or the name a new one
// takes.
func placeRetro(ctx context.Context, s *wiki.Space, rev wiki.Rev, cycle string) (retroPlace, error) {
	base := retrosDir + content.Slug(cycle)
	es, err := s.List(ctx, rev, retrosDir)
	if err != nil {
		return retroPlace{}, fmt.Errorf("retro: %w", err)
	}
	taken := map[string]bool{}
	var pl retroPlace
	for _, e := range es {
		if !inRetroFamily(base, e.Path) {
			continue
		}
		taken[e.Path] = true
		pa, err := s.ReadPage(ctx, rev, e.Path)
		var pe *content.ParseError
		switch {
		case errors.As(err, &pe):
			if pl.unreadable == "" {
				pl.unreadable = e.Path
			}
			continue
		case err != nil:
			return retroPlace{}, fmt.Errorf("retro: %w", err)
		}
		if sameCycle(retroCycleName(pa.Page.Meta.Title), cycle) {
			pl.page, pl.closed = e.Path, pa
			return pl, nil
		}
	}
	for n := 1; n < maxRetroNames; n++ {
		p := base + ".md"
		if n > 1 {
			p = fmt.Sprintf("%s-%d.md", base, n)
		}
		if !taken[p] {
			if _, err := content.CleanPath(p); err != nil {
				return retroPlace{}, fmt.Errorf("retro: %w: %w", errBadRetro, err)
			}
			pl.page = p
			return pl, nil
		}
	}
	return retroPlace{}, fmt.Errorf("retro %s.md: no free name", base)
}

// inRetroFamily reports whether p is base.md or base-N.md (N ≥ 2).
func inRetroFamily(base, p string) bool {
	if p == base+".md" {
		return true
	}
	rest, ok := strings.CutPrefix(p, base+"-")
	num, md := strings.CutSuffix(rest, ".md")
	n, err := strconv.Atoi(num)
	return ok && md && err == nil && n >= 2 && strconv.Itoa(n) == num
}

// retroCycleName is the cycle a retrospective's title names.
func retroCycleName(title string) string {
	title = oneLine(title)
	if name, ok := strings.CutPrefix(title, retroTitlePrefix); ok {
		return name
	}
	return title
}

// sameCycle compares cycle names as people write them: case and spacing
// aside ("2026-11 Sprint 3" is "2026-11 sprint 3").
func sameCycle(a, b string) bool { return strings.EqualFold(oneLine(a), oneLine(b)) }

// hasLetterOrDigit reports whether a cycle name has something to name its
// page by: "!!!" and "???" would both be retros/page.md.
func hasLetterOrDigit(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// closedReason says whether the cycle counts as closed here, and why.
func (pl retroPlace) closedReason(cycle string) (bool, string) {
	switch {
	case pl.closed != nil:
		return true, fmt.Sprintf("cycle %q is already closed: %s (batch %s)", cycle, pl.page, pl.closed.Page.Meta.Provenance.Batch)
	case pl.unreadable != "":
		return true, fmt.Sprintf("cycle %q may already be closed: %s does not parse, so the cycle it records cannot be read", cycle, pl.unreadable)
	}
	return false, ""
}
