package summary

import "github.com/ptwiki/pt/content"

// A block is one unit of Markdown structure, already reduced to plain text.
type block struct {
	kind    blockKind
	level   int      // heading level
	text    string   // plain text
	lines   []string // text as the source broke it into lines
	section string   // plain text of the nearest heading above
	task    int      // list items: 0 none, 1 open "- [ ]", 2 done "- [x]"
	quoted  bool     // inside a blockquote: often someone else's words
	row     bool     // a table's row: read for action items, never a key point
}

type blockKind int

const (
	paraBlock blockKind = iota
	headingBlock
	itemBlock
)

// parseBlocks reads the prose of a Markdown body through content, which
// holds pt's one Markdown dialect.
func parseBlocks(src string) []block {
	bs := content.Blocks([]byte(src))
	out := make([]block, 0, len(bs))
	for _, b := range bs {
		k := paraBlock
		switch b.Kind {
		case content.HeadingBlock:
			k = headingBlock
		case content.ItemBlock:
			k = itemBlock
		}
		out = append(out, block{kind: k, level: b.Level, text: b.Text, lines: b.Lines, section: b.Section, task: b.Task, quoted: b.Quoted, row: b.Row})
	}
	return out
}
