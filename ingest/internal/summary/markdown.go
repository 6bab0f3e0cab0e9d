package summary

import (
	"regexp"
	"strconv"
	"strings"
)

// A block is one unit of Markdown structure, already reduced to plain text.
type block struct {
	kind    blockKind
	level   int    // heading level
	text    string // plain text
	section string // plain text of the nearest heading above
	task    int    // list items: 0 none, 1 open "- [ ]", 2 done "- [x]"
	quoted  bool   // inside a blockquote: often someone else's words
}

type blockKind int

const (
	paraBlock blockKind = iota
	headingBlock
	itemBlock
)

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$`)
	listItem   = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$`)
	taskBox    = regexp.MustCompile(`^\[([ xX])\]\s+`)
	tableSep   = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	linkDef    = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*\S`)
	hrule      = regexp.MustCompile(`^ {0,3}([-*_])(\s*[-*_]){2,}\s*$`)
)

// parseBlocks is a line-based reading of CommonMark, good enough to find
// prose, headings and list items; it does not need to render anything.
func parseBlocks(src string) []block {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	lines = skipFrontmatter(lines)
	var (
		out     []block
		para    []string
		quoted  bool
		fence   string
		inHTML  bool
		section string
		prevBlk bool // previous line was blank
	)
	flush := func() {
		if len(para) == 0 {
			return
		}
		if t := plainText(strings.Join(para, " ")); t != "" {
			out = append(out, block{kind: paraBlock, text: t, section: section, quoted: quoted})
		}
		para = nil
	}
	addHeading := func(level int, raw string) {
		t := plainText(raw)
		if t != "" {
			out = append(out, block{kind: headingBlock, level: level, text: t, section: section})
			section = t
		}
	}
	prevBlk = true
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		case inHTML:
			if strings.Contains(line, "-->") {
				inHTML = false
			}
			continue
		}
		if f := fenceOf(line); f != "" {
			flush()
			fence = f
			continue
		}
		if strings.HasPrefix(trimmed, "<!--") {
			flush()
			inHTML = !strings.Contains(trimmed, "-->")
			continue
		}
		if trimmed == "" {
			flush()
			prevBlk = true
			continue
		}
		blankBefore := prevBlk
		prevBlk = false
		if blankBefore && len(para) == 0 && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && !listItem.MatchString(line) {
			continue // indented code
		}
		if len(para) > 0 && (strings.Trim(trimmed, "=") == "" || strings.Trim(trimmed, "-") == "" && len(trimmed) >= 2) && len(para) == 1 {
			level := 1
			if trimmed[0] == '-' {
				level = 2
			}
			raw := para[0]
			para = nil
			addHeading(level, raw)
			continue
		}
		if strings.Contains(line, "|") && tableSep.MatchString(line) {
			para = nil // the header row was read as a paragraph
			continue
		}
		if strings.HasPrefix(trimmed, "|") || trimmed[0] == '[' && linkDef.MatchString(line) || isRuleStart(trimmed[0]) && hrule.MatchString(line) {
			flush()
			continue
		}
		if strings.HasPrefix(trimmed, "<") && !strings.HasPrefix(trimmed, "<http") {
			flush()
			continue // raw HTML
		}
		inQuote := strings.HasPrefix(trimmed, ">")
		for strings.HasPrefix(trimmed, ">") {
			trimmed = strings.TrimSpace(trimmed[1:])
		}
		if len(para) > 0 && inQuote != quoted {
			flush()
		}
		if inQuote && trimmed == "" {
			flush()
			continue
		}
		if m := matchIf(trimmed != "" && trimmed[0] == '#', atxHeading, trimmed); m != nil {
			flush()
			addHeading(len(m[1]), m[2])
			continue
		}
		if item, ok := listItemText(trimmed); ok {
			flush()
			task := 0
			if t := matchIf(strings.HasPrefix(item, "["), taskBox, item); t != nil {
				task = 1
				if t[1] != " " {
					task = 2
				}
				item = item[len(t[0]):]
			}
			if t := plainText(item); t != "" {
				out = append(out, block{kind: itemBlock, text: t, section: section, task: task})
			}
			continue
		}
		if len(para) == 0 && len(out) > 0 && out[len(out)-1].kind == itemBlock && !blankBefore {
			out[len(out)-1].text += " " + plainText(trimmed) // lazy continuation
			continue
		}
		if len(para) == 0 {
			quoted = inQuote
		}
		para = append(para, trimmed)
	}
	flush()
	return out
}

// The regular expressions above are exact but slow, and most lines cannot
// match them: these cheap tests on the first byte (each implied by its
// expression) decide first.

// fenceOf returns the fence a line opens ("```" or "~~~"), or "": what
// fenceOpen matches, without it.
func fenceOf(line string) string {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	switch rest := line[i:]; {
	case strings.HasPrefix(rest, "```"):
		return "```"
	case strings.HasPrefix(rest, "~~~"):
		return "~~~"
	}
	return ""
}

func isRuleStart(c byte) bool { return c == '-' || c == '*' || c == '_' }

// listItemText returns the text of a list item line: what listItem's
// group matches, without it.
func listItemText(s string) (string, bool) {
	if strings.IndexByte(s, '\n') >= 0 {
		m := listItem.FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		return m[1], true
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\r' }
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	switch {
	case i == len(s):
		return "", false
	case s[i] == '-' || s[i] == '*' || s[i] == '+':
		i++
	default:
		d := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if n := i - d; n < 1 || n > 9 || i == len(s) || s[i] != '.' && s[i] != ')' {
			return "", false
		}
		i++
	}
	if i == len(s) || !isSpace(s[i]) {
		return "", false
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:], true
}

// matchIf runs re on s only when the cheap test may passes.
func matchIf(may bool, re *regexp.Regexp, s string) []string {
	if !may {
		return nil
	}
	return re.FindStringSubmatch(s)
}

func skipFrontmatter(lines []string) []string {
	if len(lines) == 0 {
		return lines
	}
	delim := strings.TrimSpace(lines[0])
	if delim != "---" && delim != "+++" {
		return lines
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t == delim || delim == "---" && t == "..." {
			return lines[i+1:]
		}
	}
	return lines
}

var (
	reImage     = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	reRefLink   = regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`)
	reWikiLink  = regexp.MustCompile(`\[\[(?:[^\]|]*\|)?([^\]]+)\]\]`)
	reAutolink  = regexp.MustCompile(`<((?:https?|mailto):[^>\s]+)>`)
	reHTMLTag   = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>`)
	reStrong    = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	reEmStar    = regexp.MustCompile(`(^|[^\w*])\*(\S(?:[^*]*?\S)?)\*`)
	reEmUnder   = regexp.MustCompile(`(^|[^\w_])_(\S(?:[^_]*?\S)?)_($|[^\w_])`)
	reStrike    = regexp.MustCompile(`~~(.+?)~~`)
	reCode      = regexp.MustCompile("`+[^`]*`+")
	reSpan      = regexp.MustCompile("\x00[0-9]+\x00")
	reFootnote  = regexp.MustCompile(`\[\^[^\]]+\]`)
	reBareBrack = regexp.MustCompile(`\[([^\]]*)\]`)
)

var entities = strings.NewReplacer("&nbsp;", " ", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "\\", "")

// plainText reduces inline Markdown to the words a reader sees. Code spans
// are kept, backticks and all: their brackets and underscores are literal,
// and a summary page should show them as code.
func plainText(s string) string {
	var spans []string
	if !strings.ContainsAny(s, "[<*_~&\\`") {
		return collapseSpaces(s)
	}
	if strings.Contains(s, "`") {
		s = reCode.ReplaceAllStringFunc(s, func(c string) string {
			spans = append(spans, c)
			return "\x00" + strconv.Itoa(len(spans)-1) + "\x00"
		})
	}
	// Each expression runs only when s holds what it needs to match.
	if strings.Contains(s, "[") {
		s = replaceIf(strings.Contains(s, "!["), reImage, s, "$1")
		s = replaceIf(strings.Contains(s, "[["), reWikiLink, s, "$1")
		s = inlineLinkText(s)
		s = replaceIf(strings.Contains(s, "]["), reRefLink, s, "$1")
		s = replaceIf(strings.Contains(s, "[^"), reFootnote, s, "")
		s = replaceIf(strings.Contains(s, "["), reBareBrack, s, "$1")
	}
	if strings.Contains(s, "<") {
		s = replaceIf(strings.Contains(s, "<http") || strings.Contains(s, "<mailto:"), reAutolink, s, "$1")
		s = reHTMLTag.ReplaceAllString(s, "")
	}
	if strings.ContainsAny(s, "*_") {
		s = replaceIf(strings.Contains(s, "**") || strings.Contains(s, "__"), reStrong, s, "$2")
		s = replaceIf(strings.Contains(s, "*"), reEmStar, s, "$1$2")
		s = replaceIf(strings.Contains(s, "_"), reEmUnder, s, "$1$2$3")
	}
	if strings.Contains(s, "~~") {
		s = reStrike.ReplaceAllString(s, "$1")
	}
	if strings.ContainsAny(s, "&\\") {
		s = entities.Replace(s)
	}
	if len(spans) > 0 {
		s = reSpan.ReplaceAllStringFunc(s, func(p string) string {
			i, _ := strconv.Atoi(p[1 : len(p)-1])
			return spans[i]
		})
	}
	return collapseSpaces(s)
}

func replaceIf(may bool, re *regexp.Regexp, s, repl string) string {
	if !may {
		return s
	}
	return re.ReplaceAllString(s, repl)
}

// inlineLinkText replaces inline links by their text: what
// reLink.ReplaceAllString(s, "$1") does, in one pass over s (links are
// most of the text of index pages and lists).
func inlineLinkText(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := strings.IndexByte(s[i+1:], ']')
		if j < 0 {
			break // no later '[' has a ']' either
		}
		j += i + 1
		if j+1 >= len(s) || s[j+1] != '(' {
			continue
		}
		k := strings.IndexByte(s[j+2:], ')')
		if k < 0 {
			break // no later link can be closed either
		}
		k += j + 2
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteString(s[i+1 : j])
		last, i = k+1, k
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// collapseSpaces replaces each run of the white space of regular
// expressions (\s: tab, newline, form feed, carriage return, space) by one
// space and trims the ends.
func collapseSpaces(s string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	clean := true
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) && (s[i] != ' ' || i+1 < len(s) && isSpace(s[i+1])) {
			clean = false
			break
		}
	}
	if clean {
		return strings.TrimSpace(s)
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			b = append(b, s[i])
			continue
		}
		b = append(b, ' ')
		for i+1 < len(s) && isSpace(s[i+1]) {
			i++
		}
	}
	return strings.TrimSpace(string(b))
}
