package content

import (
	"bytes"
	"sort"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/frontmatter"
)

// md is the one Markdown dialect pt reads: CommonMark with GFM tables, task
// lists and strikethrough, and YAML or TOML frontmatter, which goldmark skips
// so that positions stay offsets into the whole file. It is built on first
// use, like every other table of pt, so that a command that reads no page
// does not pay for it at start.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, &frontmatter.Extender{}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
})

// Heading is a Markdown heading with the anchor a git host gives it.
type Heading struct {
	Level  int    `json:"level"`
	Text   string `json:"text"`
	Anchor string `json:"anchor"`
	Line   int    `json:"line"`
}

// Structure is what pt needs from a page's Markdown: its headings, its links
// and its sections, with line numbers counted in the whole file.
type Structure struct {
	Headings []Heading
	Links    []Link
	Sections []Section
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range src {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (li lineIndex) line(off int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > off })
}

// Analyze parses a whole page file (frontmatter included) and returns its
// structure. It never fails: Markdown has no syntax errors.
func Analyze(src []byte) *Structure {
	s, li := outline(src)
	s.Sections = sections(src, li, s.Headings)
	return s
}

// Outline is Analyze without the sections: the headings and links of a
// page, for a caller that does not read its text (splitting it into
// sections copies it twice).
func Outline(src []byte) *Structure {
	s, _ := outline(src)
	return s
}

func outline(src []byte) (*Structure, lineIndex) {
	doc := md().Parser().Parse(text.NewReader(src))
	li := newLineIndex(src)
	s := &Structure{}
	anchors := newAnchorSet()
	var codeRanges [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			t := plainText(n, src)
			line := 1
			if l := n.Lines(); l.Len() > 0 {
				line = li.line(l.At(0).Start)
			}
			s.Headings = append(s.Headings, Heading{Level: n.Level, Text: t, Anchor: anchors.add(t), Line: line})
		case *ast.Link:
			s.Links = append(s.Links, newLink(string(n.Destination), plainText(n, src), li.line(nodeStart(n, src))))
		case *ast.Image:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if l := n.Lines(); l.Len() > 0 {
				codeRanges = append(codeRanges, [2]int{l.At(0).Start, l.At(l.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			// Inline HTML: a comment, also one over several lines of a
			// paragraph, hides what it holds, and a tag's attributes are
			// no links either.
			if segs := n.Segments; segs.Len() > 0 {
				codeRanges = append(codeRanges, [2]int{segs.At(0).Start, segs.At(segs.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if t, ok := n.LastChild().(*ast.Text); ok && n.Pos() >= 0 {
				codeRanges = append(codeRanges, [2]int{n.Pos(), t.Segment.Stop + 1})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	s.Links = append(s.Links, wikiLinks(src, li, codeRanges)...)
	sort.SliceStable(s.Links, func(i, j int) bool { return s.Links[i].Line < s.Links[j].Line })
	return s, li
}

// nodeStart finds a byte offset for an inline node: its own position when
// goldmark recorded one, else the first text segment below it.
func nodeStart(n ast.Node, src []byte) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}

// plainText is the visible text of a node: text, code spans and the text of
// links, without Markdown punctuation.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tt, ok := t.(*ast.Text); ok {
					b.Write(tt.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return string(bytes.TrimSpace(b.Bytes()))
}
