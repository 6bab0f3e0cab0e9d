package lint

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
)

// page is one Markdown file of the space as the checks see it: what they
// need of it, extracted once per run. It holds neither the text nor the
// parsed body, so that a run over a large space keeps a few hundred bytes
// per page rather than the space.
type page struct {
	path    string
	blob    string
	meta    *content.Meta       // nil when the frontmatter is invalid
	err     *content.ParseError // why meta is nil
	links   []content.Link
	anchors map[string]bool  // lower-cased heading anchors and HTML ids
	secrets []secret.Finding // the credentials the text carries
	// pins holds the line of each provenance pin, by key ("derived_from",
	// "citations") and index, as pinLine finds it.
	pins map[string][]int
	// expiresLine is the line of a time_bound page's expires key.
	expiresLine int
	// pending is the text of a page that is not in the repository (a
	// spoke or hub as a batch will write it): the few of those are kept.
	pending []byte
}

// htmlIDRe finds the explicit anchors a page declares in HTML
// (<a name="x">, <span id="x">), which hosts honour like heading anchors.
var htmlIDRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<[a-zA-Z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']`)
})

// headingIDRe finds explicit heading ids ("## Names {#names}"), which
// Hugo, kramdown and Pandoc turn into the heading's anchor.
var headingIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{#([^}\s]+)[^}]*\}\s*$`) })

// parse extracts from data, the page's text, what the checks need.
func (p *page) parse(data []byte) {
	*p = page{path: p.path, blob: p.blob, secrets: secret.Scan(data)}
	pg, err := content.Parse(p.path, data)
	if err != nil {
		var pe *content.ParseError
		if !errors.As(err, &pe) {
			pe = &content.ParseError{Path: p.path, Err: err}
		}
		p.err = pe
		if errors.Is(err, content.ErrBinary) || errors.Is(err, content.ErrInvalidUTF8) || errors.Is(err, content.ErrTooLarge) {
			return
		}
	}
	if pg != nil {
		m := pg.Meta // a copy: the page and its text are not kept
		p.meta = &m
		p.pins = pinLines(pg)
		if pg.Meta.Durability == "time_bound" {
			p.expiresLine = frontmatterLine(data, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "expires:") })
		}
	}
	st := content.Analyze(data)
	p.links = st.Links
	p.anchors = make(map[string]bool, len(st.Headings))
	for _, h := range st.Headings {
		p.anchors[strings.ToLower(h.Anchor)] = true
		if m := headingIDRe().FindStringSubmatch(h.Text); m != nil {
			p.anchors[strings.ToLower(m[1])] = true
		}
	}
	if bytes.Contains(data, []byte("id=")) || bytes.Contains(data, []byte("name=")) {
		for _, m := range htmlIDRe().FindAllSubmatch(data, -1) {
			p.anchors[strings.ToLower(string(m[1]))] = true
		}
	}
}

// pinLines finds the line of every provenance pin of pg.
func pinLines(pg *content.Page) map[string][]int {
	prov := pg.Meta.Provenance
	if len(prov.DerivedFrom) == 0 && len(prov.Citations) == 0 {
		return nil
	}
	out := map[string][]int{}
	for _, g := range []struct {
		key  string
		refs []content.Ref
	}{{"derived_from", prov.DerivedFrom}, {"citations", prov.Citations}} {
		for i := range g.refs {
			out[g.key] = append(out[g.key], pinLine(pg, g.key, i))
		}
	}
	return out
}

// pinLine is the line of p's i-th pin under key (see pinLines), 1 when
// unknown.
func (p *page) pinLine(key string, i int) int {
	if ls := p.pins[key]; i < len(ls) {
		return ls[i]
	}
	return 1
}
