package lint

import (
	"bytes"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
)

// page is one Markdown file of the space as the checks see it: its path,
// its blob and the facts the checks read of its text. It holds neither
// the text nor the parsed body, so that a run over a large space keeps a
// few hundred bytes per page rather than the space.
type page struct {
	path string
	blob string
	*lintFacts
	// pending is the text of a page that is not in the repository (a
	// spoke or hub as a batch will write it): the few of those are kept.
	pending []byte
}

// lintFacts is what the checks read of a page's text, extracted once. It
// depends on the text alone, not on the page's path or the rest of the
// space, so runs keep it by blob id (factsStore); its fields are exported
// for that encoding only.
type lintFacts struct {
	Meta    *pageMeta     // nil when the frontmatter cannot be read
	Invalid *invalidFront // why Meta is nil
	// Links are the page's links within the repository: external and
	// root-relative links are no lint's business, and link text is not
	// read.
	Links   []content.Link
	Anchors []string         // lower-cased heading anchors and HTML ids, sorted
	Secrets []secret.Finding // the first credential of each kind the text carries
	// Pins holds the line of each provenance pin: derived_from, then
	// citations, in their order (see pinLine).
	Pins [2][]int
	// ExpiresLine is the line of a time_bound page's expires key.
	ExpiresLine int
}

// invalidFront is why a page's frontmatter cannot be read, and where.
type invalidFront struct {
	Line    int
	Message string
}

// pageMeta is the part of a page's frontmatter the checks read.
type pageMeta struct {
	Title, Kind, Status, AuthorKind string
	SupersededBy, Retraction        string
	Durability, Expires             string
	Supersedes                      []string
	DerivedFrom, Citations          []content.Ref
}

func newPageMeta(m content.Meta) *pageMeta {
	return &pageMeta{Title: m.Title, Kind: m.Kind, Status: m.Status, AuthorKind: m.Author.Kind,
		SupersededBy: m.SupersededBy, Retraction: m.Retraction, Durability: m.Durability, Expires: m.Expires,
		Supersedes: m.Supersedes, DerivedFrom: m.Provenance.DerivedFrom, Citations: m.Provenance.Citations}
}

// ownedByHuman is content.Meta.OwnedByHuman.
func (m *pageMeta) ownedByHuman() bool {
	return content.Meta{Author: content.Author{Kind: m.AuthorKind}}.OwnedByHuman()
}

// expiresAt is content.Meta.ExpiresAt.
func (m *pageMeta) expiresAt() (t time.Time, ok bool) {
	return content.Meta{Expires: m.Expires}.ExpiresAt()
}

// hasAnchor reports whether a (lower case) is an anchor of the page.
func (f *lintFacts) hasAnchor(a string) bool {
	_, ok := slices.BinarySearch(f.Anchors, a)
	return ok
}

// htmlIDRe finds the explicit anchors a page declares in HTML
// (<a name="x">, <span id="x">), which hosts honour like heading anchors.
var htmlIDRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<[a-zA-Z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']`)
})

// headingIDRe finds explicit heading ids ("## Names {#names}"), which
// Hugo, kramdown and Pandoc turn into the heading's anchor.
var headingIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{#([^}\s]+)[^}]*\}\s*$`) })

// parse sets p's facts from data, its text.
func (p *page) parse(data []byte) {
	p.lintFacts = parseFacts(p.path, data)
}

// parseFacts extracts from data, a page's text, what the checks need.
// path is used in error messages only, which the facts do not keep.
func parseFacts(path string, data []byte) *lintFacts {
	f := &lintFacts{Secrets: firstOfEachKind(secret.Scan(data))}
	pg, err := content.Parse(path, data)
	if err != nil {
		var pe *content.ParseError
		if !errors.As(err, &pe) {
			pe = &content.ParseError{Path: path, Err: err}
		}
		f.Invalid = &invalidFront{Line: pe.Line, Message: pe.Err.Error()}
		if errors.Is(err, content.ErrBinary) || errors.Is(err, content.ErrInvalidUTF8) || errors.Is(err, content.ErrTooLarge) {
			return f
		}
	}
	if pg != nil {
		f.Meta = newPageMeta(pg.Meta)
		f.Pins = pinLines(pg)
		if pg.Meta.Durability == "time_bound" {
			f.ExpiresLine = frontmatterLine(data, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "expires:") })
		}
	}
	st := content.Outline(data)
	for _, l := range st.Links {
		if !l.External && !l.Absolute {
			l.Text = ""
			f.Links = append(f.Links, l)
		}
	}
	var anchors []string
	for _, h := range st.Headings {
		anchors = append(anchors, strings.ToLower(h.Anchor))
		if strings.Contains(h.Text, "{#") {
			if m := headingIDRe().FindStringSubmatch(h.Text); m != nil {
				anchors = append(anchors, strings.ToLower(m[1]))
			}
		}
	}
	if bytes.Contains(data, []byte("id=")) || bytes.Contains(data, []byte("name=")) {
		for _, m := range htmlIDRe().FindAllSubmatch(data, -1) {
			anchors = append(anchors, strings.ToLower(string(m[1])))
		}
	}
	slices.Sort(anchors)
	f.Anchors = slices.Clip(slices.Compact(anchors))
	return f
}

// firstOfEachKind keeps the first credential of each kind: the check
// reports one row per kind, at its first line.
func firstOfEachKind(fs []secret.Finding) []secret.Finding {
	var out []secret.Finding
	for _, f := range fs {
		if !slices.ContainsFunc(out, func(o secret.Finding) bool { return o.Kind == f.Kind }) {
			out = append(out, f)
		}
	}
	return out
}

// pinLines finds the line of every provenance pin of pg.
func pinLines(pg *content.Page) [2][]int {
	var out [2][]int
	prov := pg.Meta.Provenance
	for g, refs := range [2][]content.Ref{prov.DerivedFrom, prov.Citations} {
		for i := range refs {
			out[g] = append(out[g], pinLine(pg, pinKey(g), i))
		}
	}
	return out
}

// pinKey is the provenance key of group g of Pins.
func pinKey(g int) string {
	if g == 0 {
		return "derived_from"
	}
	return "citations"
}

// pinLine is the line of p's i-th pin in group g of Pins, 1 when unknown.
func (f *lintFacts) pinLine(g, i int) int {
	if ls := f.Pins[g]; i < len(ls) {
		return ls[i]
	}
	return 1
}
