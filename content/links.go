package content

import (
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Link is a reference from a page to somewhere else: a Markdown link or a
// [[wiki link]]. Target is what was written; Path and Anchor are filled for
// links that stay inside the repository.
type Link struct {
	Target   string `json:"target"`
	Text     string `json:"text,omitempty"`
	Line     int    `json:"line"`
	Wiki     bool   `json:"wiki,omitempty"`     // written as [[...]]: resolved by name, not by path
	External bool   `json:"external,omitempty"` // has a scheme (https:, mailto:) or is protocol-relative
	Absolute bool   `json:"absolute,omitempty"` // starts with "/": relative to a site or repository root
	Path     string `json:"path,omitempty"`     // for relative links: the target path as written, unescaped, without anchor or query
	Anchor   string `json:"anchor,omitempty"`
}

var schemeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`) })

// ParseLink reads a link destination as a page writes it: external or
// not, and for a link within the repository its path and anchor.
func ParseLink(dest string) Link { return newLink(dest, "", 0) }

func newLink(dest, text string, line int) Link {
	l := Link{Target: dest, Text: text, Line: line}
	switch {
	case strings.HasPrefix(dest, "//") || schemeRe().MatchString(dest):
		l.External = true
		return l
	}
	p, frag, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	l.Path = p
	l.Anchor = frag
	l.Absolute = strings.HasPrefix(p, "/")
	return l
}

// wikiLinkRe matches [[target]], [[target#anchor]] and [[target|label]].
var wikiLinkRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\[\[([^\[\]|#\n]*)(#[^\[\]|\n]*)?(\|[^\[\]\n]*)?\]\]`)
})

func wikiLinks(src []byte, li lineIndex, skip [][2]int) []Link {
	start := bodyOffset(src)
	var out []Link
	for _, m := range wikiLinkRe().FindAllSubmatchIndex(src, -1) {
		if m[0] < start || inRanges(m[0], skip) {
			continue
		}
		target := strings.TrimSpace(string(src[m[2]:m[3]]))
		l := Link{Target: string(src[m[0]:m[1]]), Line: li.line(m[0]), Wiki: true, Path: target}
		if m[4] >= 0 {
			l.Anchor = string(src[m[4]+1 : m[5]])
		}
		if m[6] >= 0 {
			l.Text = strings.TrimSpace(string(src[m[6]+1 : m[7]]))
		} else {
			l.Text = target
		}
		if target == "" && l.Anchor == "" {
			continue
		}
		out = append(out, l)
	}
	return out
}

func bodyOffset(src []byte) int {
	_, body, _, ok, err := splitFrontmatter(src)
	if !ok || err != nil {
		return 0
	}
	return len(src) - len(body)
}

func inRanges(off int, rs [][2]int) bool {
	for _, r := range rs {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

// Resolve returns the space-relative path a relative link from page `from`
// points at ("" when the link points at the page itself, as "#anchor" does).
// ok is false for external and absolute links, and for links that climb out
// of the space.
func (l Link) Resolve(from string) (target string, ok bool) {
	if l.External || l.Absolute || l.Wiki {
		return "", false
	}
	if l.Path == "" {
		return from, true
	}
	joined := path.Join(path.Dir(from), l.Path)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "", false
	}
	return joined, true
}

// WikiKey normalizes a [[wiki link]] target, a file name or a title to the
// form they are matched on: lower case, no .md, spaces and underscores as
// hyphens.
func WikiKey(s string) string {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ".md"))
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' {
			return '-'
		}
		return r
	}, s)
}

// RelLink returns the relative link from page `from` to page `to`, both
// space-relative, as a git host resolves it.
func RelLink(from, to string) string {
	fromDir := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		fromDir = nil
	}
	toParts := strings.Split(to, "/")
	i := 0
	for i < len(fromDir) && i < len(toParts)-1 && fromDir[i] == toParts[i] {
		i++
	}
	var b strings.Builder
	for range fromDir[i:] {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(toParts[i:], "/"))
	return b.String()
}
