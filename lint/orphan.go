package lint

import (
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// orphans reports the pages nothing leads to: no other page links to them
// (spokes list their members with links, so a listed page is linked) and
// no page names them in its provenance (a source is reached from its
// summary). The hub, the spokes and the log are entry points, never
// orphans, and neither is a README.md, which every git host shows as its
// folder's page; nor are pages already out of circulation (stale, retracted,
// expired), which the spokes drop on purpose, nor unreadable pages, which
// get invalid_frontmatter instead. targets holds where the links of each
// page lead, in the order of the pages.
func (snap *snapshot) orphans(targets [][]linkTarget, add func(check, path string, line int, target, msg string)) {
	linked := make(map[string]bool, len(snap.pages))
	for i, p := range snap.pages {
		for _, t := range targets[i] {
			if t.ok && t.page != nil && t.page != p {
				linked[t.page.path] = true
			}
		}
		if p.Meta == nil {
			continue
		}
		for _, refs := range [][]content.Ref{p.Meta.DerivedFrom, p.Meta.Citations} {
			for _, r := range refs {
				if r.Path != "" && path.Clean(r.Path) != p.path {
					linked[path.Clean(r.Path)] = true
				}
			}
		}
	}
	for _, p := range snap.pages {
		if linked[p.path] || p.Meta == nil || wiki.IsIndexPage(p.path) || strings.EqualFold(path.Base(p.path), "README.md") {
			continue
		}
		switch p.Meta.Kind {
		case content.KindHub, content.KindTopic, content.KindLog:
			continue
		}
		if st := p.Meta.Status; st == content.StatusStale || content.Retired(st) {
			continue
		}
		add(CheckOrphan, p.path, 0, "", "no page links to this page and no spoke lists it")
	}
}
