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
func (snap *snapshot) retiredCitations(p *page, add func(check, path string, line int, target, msg string)) {
	m := *p.meta
	if content.Retired(m.Status) || m.Status == content.StatusStale || wiki.IsIndexPage(p.path) {
		return
	}
	report := func(t *page, line int) {
		if t == nil || t == p || t.meta == nil || !content.Retired(t.meta.Status) || slices.Contains(m.Supersedes, t.path) {
			return
		}
		add(CheckRetired, p.path, line, t.path, fmt.Sprintf("cites %s, which is %s", t.path, retiredWhy(*t.meta)))
	}
	for _, l := range p.links {
		if l.External || l.Absolute {
			continue
		}
		if t, _, ok := snap.resolve(p, l); ok {
			report(t, l.Line)
		}
	}
	prov := m.Provenance
	for _, g := range []struct {
		key  string
		refs []content.Ref
	}{{"derived_from", prov.DerivedFrom}, {"citations", prov.Citations}} {
		for i, r := range g.refs {
			if r.Path != "" {
				report(snap.byPath[path.Clean(r.Path)], p.pinLine(g.key, i))
			}
		}
	}
}

// retiredWhy says how a page was retired and what to cite instead.
func retiredWhy(m content.Meta) string {
	switch {
	case m.Status == content.StatusSuperseded && m.SupersededBy != "":
		return "superseded by " + m.SupersededBy + ": cite the successor"
	case m.Status == content.StatusRetracted && m.Retraction != "":
		return "retracted (" + m.Retraction + ")"
	}
	return m.Status
}
