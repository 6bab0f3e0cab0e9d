package content

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// BlockKind is what a Block is: prose, a heading or a list item.
type BlockKind int

// The kinds of Block.
const (
	ParagraphBlock BlockKind = iota
	HeadingBlock
	ItemBlock
)

// Block is one unit of a page's prose reduced to the words a reader sees:
// a paragraph, a heading or a list item. Code, tables and HTML are not
// prose and yield no block.
type Block struct {
	Kind  BlockKind
	Level int    // a heading's level
	Text  string // plain text on one line; code spans keep their backticks
	// Lines are Text as the source broke it into lines: a chat excerpt
	// ("name: message" per line) is one paragraph of many lines.
	Lines   []string
	Section string // the text of the nearest heading above
	Task    int    // list items: 0 none, 1 open "- [ ]", 2 done "- [x]"
	Quoted  bool   // inside a blockquote: often someone else's words
	// Row marks an item that is a table's body row, its cells joined by
	// " — ": an action table's rows are its action items.
	Row bool
}

// Blocks reads the prose of a Markdown body in document order, through the
// same dialect as Analyze.
func Blocks(src []byte) []Block {
	doc := md().Parser().Parse(text.NewReader(src))
	var out []Block
	section := ""
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if b := newBlock(HeadingBlock, n, src, section); b.Text != "" {
				b.Level = n.Level
				out = append(out, b)
				section = b.Text
			}
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			b := newBlock(ItemBlock, n, src, section)
			if cb, ok := firstCheckBox(n); ok {
				b.Task = 1
				if cb.IsChecked {
					b.Task = 2
				}
			}
			if b.Text != "" {
				out = append(out, b)
			}
			return ast.WalkContinue, nil // nested lists are items of their own
		case *ast.Paragraph, *ast.TextBlock:
			if _, inItem := n.Parent().(*ast.ListItem); inItem {
				return ast.WalkSkipChildren, nil // read with its item
			}
			if b := newBlock(ParagraphBlock, n, src, section); b.Text != "" {
				out = append(out, b)
			}
			return ast.WalkSkipChildren, nil
		case *east.TableRow:
			if b := tableRow(n, src, section); b.Text != "" {
				out = append(out, b)
			}
			return ast.WalkSkipChildren, nil
		case *east.TableHeader, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

func newBlock(kind BlockKind, n ast.Node, src []byte, section string) Block {
	var raw strings.Builder
	if kind == ItemBlock {
		// An item's own text: its paragraphs, not its nested lists.
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if _, list := c.(*ast.List); !list {
				proseText(&raw, c, src)
				raw.WriteByte('\n')
			}
		}
	} else {
		proseText(&raw, n, src)
	}
	var lines []string
	for l := range strings.SplitSeq(raw.String(), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	b := Block{Kind: kind, Text: strings.Join(lines, " "), Lines: lines, Section: section, Quoted: quoted(n)}
	return b
}

// proseText writes the visible text of n: text, link and emphasis text,
// code spans with their backticks, autolinks' addresses; inline HTML is
// dropped and each source line break is a newline.
func proseText(b *strings.Builder, n ast.Node, src []byte) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			b.WriteByte('`')
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tt, ok := t.(*ast.Text); ok {
					b.Write(tt.Segment.Value(src))
				}
			}
			b.WriteByte('`')
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(c.URL(src))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML, *east.TaskCheckBox:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// tableRow is a table's body row as an item: its non-empty cells joined
// by " — ".
func tableRow(row ast.Node, src []byte, section string) Block {
	var cells []string
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		var b strings.Builder
		proseText(&b, c, src)
		if t := strings.Join(strings.Fields(b.String()), " "); t != "" {
			cells = append(cells, t)
		}
	}
	t := strings.Join(cells, " — ")
	return Block{Kind: ItemBlock, Text: t, Lines: []string{t}, Section: section, Quoted: quoted(row), Row: true}
}

func firstCheckBox(item ast.Node) (*east.TaskCheckBox, bool) {
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		if _, list := c.(*ast.List); list {
			continue
		}
		if cb, ok := c.FirstChild().(*east.TaskCheckBox); ok {
			return cb, true
		}
	}
	return nil, false
}

func quoted(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.Blockquote); ok {
			return true
		}
	}
	return false
}
