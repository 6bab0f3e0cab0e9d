package content

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/frontmatter"
)

// HTMLOptions says how RenderHTML treats the destinations of links and
// images. The zero value keeps them as written.
type HTMLOptions struct {
	// Link returns the URL that a destination written in the page is served
	// at, or "" to drop the destination and keep the link's text. image
	// is true for an image's source.
	Link func(dest string, image bool) string
}

// htmlMD renders pages to HTML as a git host shows them: GFM tables (cells
// aligned with the align attribute), task lists, strikethrough and bare
// URLs as links, frontmatter left out. It
// keeps goldmark's safe default: raw HTML in a page is omitted, never
// passed through, and javascript:, vbscript: and file: destinations are
// emptied.
var htmlMD = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Linkify, extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.TaskList, &frontmatter.Extender{}),
	)
})

// htmlPolicy is the second line of defence, applied to whatever goldmark
// wrote: only the elements and attributes Markdown produces, links to
// http, https and mailto or relative ones, nothing that runs script.
var htmlPolicy = sync.OnceValue(newHTMLPolicy)

func newHTMLPolicy() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(true)
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[\p{L}\p{N}_-]+$`)).OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w.+#-]+$`)).OnElements("code")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$`)).OnElements("input")
	// Alignment as an attribute, as git hosts write it: a style attribute
	// would need the view's policy to allow inline styles.
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	return p
}

// RenderHTML renders a page file (frontmatter, if any, is skipped) to HTML
// that is safe to embed in a page a browser shows: whatever the page
// holds, the result carries no script, no event handler and no link that
// runs code. Headings get the anchors a git host gives them, so that
// "#anchor" links work.
func RenderHTML(src []byte, opts HTMLOptions) []byte {
	doc := htmlMD().Parser().Parse(text.NewReader(src))
	anchors := newAnchorSet()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			n.SetAttributeString("id", []byte(anchors.add(plainText(n, src))))
		case *ast.Link:
			n.Destination = rewriteDest(n.Destination, false, opts)
		case *ast.Image:
			n.Destination = rewriteDest(n.Destination, true, opts)
		}
		return ast.WalkContinue, nil
	})
	var b bytes.Buffer
	if err := htmlMD().Renderer().Render(&b, src, doc); err != nil {
		// Rendering writes to memory and fails only on a renderer bug.
		return htmlPolicy().SanitizeBytes([]byte("<pre>" + err.Error() + "</pre>"))
	}
	return htmlPolicy().SanitizeBytes(b.Bytes())
}

// rewriteDest maps a destination through opts.Link; a destination with a
// scheme other than http, https or mailto is dropped before it is asked.
func rewriteDest(dest []byte, image bool, opts HTMLOptions) []byte {
	d := string(bytes.TrimSpace(dest))
	if m := schemeRe().FindString(d); m != "" {
		switch string(bytes.ToLower([]byte(m))) {
		case "http:", "https:", "mailto:":
		default:
			return nil
		}
	}
	if opts.Link == nil {
		return []byte(d)
	}
	return []byte(opts.Link(d, image))
}
