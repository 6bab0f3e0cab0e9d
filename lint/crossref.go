package lint

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
)

// crossrefs reports the links of p that lead nowhere: a relative link to a
// file or directory the space does not have, a [[wiki link]] that names no
// page, or an #anchor that is not a heading of its target. External links,
// root-relative links and links that climb out of the space belong to
// other tools and are not checked.
func (snap *snapshot) crossrefs(p *page, targets []linkTarget, add func(check, path string, line int, target, msg string)) {
	for i, l := range p.Links {
		target, desc, ok := targets[i].page, targets[i].desc, targets[i].ok
		if !ok {
			if l.Wiki {
				add(CheckCrossref, p.path, l.Line, l.Target, fmt.Sprintf("wiki link %s: no page is named %q", l.Target, l.Path))
			} else if t, in := l.Resolve(p.path); in {
				add(CheckCrossref, p.path, l.Line, l.Target, fmt.Sprintf("link to %s: %s does not exist", l.Target, t))
			}
			continue
		}
		if l.Anchor == "" || target == nil || target.Meta == nil {
			continue
		}
		if a := normAnchor(l.Anchor); !target.hasAnchor(a) {
			add(CheckCrossref, p.path, l.Line, l.Target, fmt.Sprintf("link to %s: %s has no heading #%s", l.Target, desc, a))
		}
	}
}

// linkTarget is where a link leads: resolve's results.
type linkTarget struct {
	page *page
	desc string
	ok   bool
}

// linkTargets resolves every link of p.
func (snap *snapshot) linkTargets(p *page) []linkTarget {
	out := make([]linkTarget, len(p.Links))
	for i, l := range p.Links {
		out[i].page, out[i].desc, out[i].ok = snap.resolve(p, l)
	}
	return out
}

// resolve finds what a link points at. ok is false when it points nowhere;
// target is nil when it points at something that is not a page (a
// directory, an image) or out of the space.
func (snap *snapshot) resolve(from *page, l content.Link) (target *page, desc string, ok bool) {
	if l.Wiki {
		if l.Path == "" {
			return from, "this page", true
		}
		cands := snap.wikiIndex()[content.WikiKey(l.Path)]
		if len(cands) == 0 {
			return nil, "", false
		}
		// A name shared by several pages means the nearest one: same folder first.
		best := cands[0]
		for _, c := range cands {
			if path.Dir(c.path) == path.Dir(from.path) {
				best = c
				break
			}
		}
		return best, best.path, true
	}
	t, in := l.Resolve(from.path)
	if !in {
		return nil, "", true // out of the space: not ours to check
	}
	if t == from.path {
		return from, "this page", true
	}
	if _, isFile := snap.files[t]; isFile {
		return snap.byPath[t], t, true
	}
	if path.Ext(t) == "" {
		// Wikis (GitHub's, Gitea's, Hugo sites) link pages without ".md";
		// the page is there, so the link is not dead.
		if pg := snap.byPath[t+".md"]; pg != nil {
			return pg, pg.path, true
		}
	}
	if t == "." || snap.dirs[t] {
		// A folder: hosts show its README.
		for _, n := range []string{"README.md", "readme.md", "index.md"} {
			if pg := snap.byPath[path.Join(t, n)]; pg != nil {
				return pg, pg.path, true
			}
		}
		return nil, t, true
	}
	return nil, "", false
}

// normAnchor is a link's fragment as it is compared with heading anchors:
// unescaped and lower case (hosts match fragments case-insensitively).
func normAnchor(a string) string {
	if u, err := url.PathUnescape(a); err == nil {
		a = u
	}
	return strings.ToLower(a)
}
