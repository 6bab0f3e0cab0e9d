package lint

import (
	"fmt"
	"path"
	"slices"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// retiredCitations reports what an active page still cites of retired
// knowledge: a link, a derived_from or a citation to a page that is
// superseded, retracted, obsolete, archived or expired. A successor's
// link to a page it lists in supersedes is how it says what it replaced,
// and is not reported.
func (snap *snapshot) retiredCitations(p *page, targets []linkTarget, add func(check, path string, line int, target, msg string)) {
	m := p.Meta
	if content.Retired(m.Status) || m.Status == content.StatusStale || wiki.IsIndexPage(p.path) {
		return
	}
	report := func(t *page, line int) {
		if t == nil || t == p || t.Meta == nil || !content.Retired(t.Meta.Status) || slices.Contains(m.Supersedes, t.path) {
			return
		}
		add(CheckRetired, p.path, line, t.path, fmt.Sprintf("cites %s, which is %s", t.path, retiredWhy(t.Meta)))
	}
	for i, l := range p.Links {
		if targets[i].ok {
			report(targets[i].page, l.Line)
		}
	}
	for g, refs := range [2][]content.Ref{m.DerivedFrom, m.Citations} {
		for i, r := range refs {
			if r.Path != "" {
				report(snap.byPath[path.Clean(r.Path)], p.pinLine(g, i))
			}
		}
	}
}

// retiredWhy says how a page was retired and what to cite instead.
func retiredWhy(m *pageMeta) string {
	switch {
	case m.Status == content.StatusSuperseded && m.SupersededBy != "":
		return "superseded by " + m.SupersededBy + ": cite the successor"
	case m.Status == content.StatusRetracted && m.Retraction != "":
		return "retracted (" + m.Retraction + ")"
	}
	return m.Status
}
