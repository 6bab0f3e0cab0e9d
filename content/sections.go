package content

import (
	"strings"
)

// SectionLevel is the deepest heading that starts a section of its own;
// deeper headings stay inside their parent so a section keeps its context.
const SectionLevel = 3

// Section is the unit pt ranks and returns: the text under one heading, up
// to the next heading of the same or a higher level (at most SectionLevel).
type Section struct {
	Heading string `json:"heading"` // "" for the text before the first heading
	Path    string `json:"path"`    // headings from the top, joined by " > "
	Anchor  string `json:"anchor"`
	Level   int    `json:"level"`
	Line    int    `json:"line"`     // first line, 1-based, in the whole file
	EndLine int    `json:"end_line"` // last line
	Text    string `json:"text"`     // the Markdown source of the section
}

func sections(src []byte, li lineIndex, hs []Heading) []Section {
	start := bodyOffset(src)
	lines := strings.SplitAfter(string(src), "\n")
	firstBody := li.line(start)
	if start >= len(src) {
		firstBody = len(lines) + 1
	}
	var out []Section
	var stack []string
	emit := func(h Heading, from, to int, path string) {
		if from < firstBody {
			from = firstBody
		}
		if to > len(lines) {
			to = len(lines)
		}
		if from > to {
			return
		}
		txt := strings.Join(lines[from-1:to], "")
		if strings.TrimSpace(txt) == "" {
			return
		}
		out = append(out, Section{Heading: h.Text, Path: path, Anchor: h.Anchor, Level: h.Level, Line: from, EndLine: to, Text: txt})
	}
	var cuts []Heading
	for _, h := range hs {
		if h.Level <= SectionLevel {
			cuts = append(cuts, h)
		}
	}
	if len(cuts) == 0 {
		emit(Heading{}, firstBody, len(lines), "")
		return out
	}
	emit(Heading{}, firstBody, cuts[0].Line-1, "")
	for i, h := range cuts {
		for len(stack) >= h.Level {
			stack = stack[:len(stack)-1]
		}
		for len(stack) < h.Level-1 {
			stack = append(stack, "")
		}
		stack = append(stack, h.Text)
		end := len(lines)
		if i+1 < len(cuts) {
			end = cuts[i+1].Line - 1
		}
		emit(h, h.Line, end, joinPath(stack))
	}
	return out
}

func joinPath(parts []string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, " > ")
}
