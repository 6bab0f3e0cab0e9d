package ingest

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SummaryOptions tunes Summarize. The zero value is ready to use.
type SummaryOptions struct {
	// MaxSentences is the number of key sentences; 0 means 5.
	MaxSentences int
	// MaxOutline caps the number of headings in the outline; 0 means 40.
	MaxOutline int
}

// Summary is an extractive summary of a source: sentences and lines taken
// from the text, never invented, so that a summary page can be produced
// without a model and is reproducible byte for byte.
type Summary struct {
	// Line is one line (at most summaryLineMax characters) for spokes and
	// search results.
	Line         string   `json:"line"`
	KeySentences []string `json:"key_sentences,omitempty"`
	// Outline holds the headings, each "- text" indented two spaces per
	// level below the shallowest.
	Outline   []string `json:"outline,omitempty"`
	Decisions []string `json:"decisions,omitempty"`
	Actions   []string `json:"actions,omitempty"`
}

// summaryLineMax bounds Summary.Line: a spoke lists one line per page, and
// search results show it under the title.
const summaryLineMax = 160

// Summarize builds an extractive summary of a Markdown body. It skips
// frontmatter, code, tables and HTML; reduces links and emphasis to their
// text; scores sentences by position, overlap with the title and the
// headings, term frequency and length; and lifts out decisions and action
// items by their usual markers. It is deterministic.
func Summarize(title string, body []byte, opts SummaryOptions) Summary {
	if opts.MaxSentences <= 0 {
		opts.MaxSentences = 5
	}
	if opts.MaxOutline <= 0 {
		opts.MaxOutline = 40
	}
	blocks := parseBlocks(string(body))
	var s Summary
	s.Outline = outline(title, blocks, opts.MaxOutline)
	sents := sentences(blocks)
	s.Decisions, s.Actions = decisionsAndActions(blocks, sents)
	cands := candidates(blocks, sents)
	scoreSentences(title, blocks, cands)
	s.KeySentences = topSentences(cands, opts.MaxSentences)
	s.Line = summaryLine(title, cands)
	return s
}

// Markdown renders the summary page body. Line is not repeated: it goes in
// the page's frontmatter summary field.
func (s Summary) Markdown() string {
	var b strings.Builder
	section := func(name string, items []string, bullet bool) {
		if len(items) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("## " + name + "\n\n")
		for _, it := range items {
			if bullet {
				b.WriteString("- ")
			}
			b.WriteString(it + "\n")
		}
	}
	section("Key points", s.KeySentences, true)
	section("Outline", s.Outline, false)
	section("Decisions", s.Decisions, true)
	section("Action items", s.Actions, true)
	return b.String()
}

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

func outline(title string, blocks []block, max int) []string {
	var hs []block
	for _, b := range blocks {
		if b.kind == headingBlock {
			hs = append(hs, b)
		}
	}
	if len(hs) > 0 && strings.EqualFold(hs[0].text, strings.TrimSpace(title)) {
		hs = hs[1:] // the page's own title, repeated as its H1
	}
	if len(hs) == 0 {
		return nil
	}
	minLevel := 6
	for _, h := range hs {
		minLevel = min(minLevel, h.level)
	}
	var out []string
	for _, h := range hs {
		if len(out) == max {
			break
		}
		out = append(out, strings.Repeat("  ", h.level-minLevel)+"- "+h.text)
	}
	return out
}

var (
	decisionMarker = regexp.MustCompile(`(?i)^(?:decision|resolution|resolved|agreed)\s*[:\-–]\s*`)
	decisionWords  = regexp.MustCompile(`(?i)\b(?:we|team|group|everyone|all)\s+(?:\w+\s+)?(?:decided|agreed)\b|^(?:decided|agreed)\b|\bdecision was\b|\bwas decided\b`)
	actionMarker   = regexp.MustCompile(`^(?:(?i:action items?|action)\s*[:\-–]|AI\s*(?:\([^)]*\))?\s*:|TODO\b\s*(?:\([^)]*\))?\s*:?)\s*`)
	actionWords    = regexp.MustCompile(`\bTODO\b|@[\w.\-]+\s+(?:will|to)\s+\w|(?i:\baction item\b)`)
	decisionHead   = regexp.MustCompile(`(?i)^(?:key\s+)?(?:decisions?|resolutions?|outcomes?)(?:\s+made)?$`)
	actionHead     = regexp.MustCompile(`(?i)^(?:action items?|actions|next steps|follow[- ]?ups?|to-?dos?|tasks)$`)
)

// sentences splits the text of every block but headings into sentences
// (nil for headings), once for decisionsAndActions and candidates.
func sentences(blocks []block) [][]string {
	out := make([][]string, len(blocks))
	for i, b := range blocks {
		if b.kind != headingBlock {
			out[i] = splitSentences(b.text)
		}
	}
	return out
}

func decisionsAndActions(blocks []block, sents [][]string) (decisions, actions []string) {
	seenD, seenA := map[string]bool{}, map[string]bool{}
	add := func(list *[]string, seen map[string]bool, s string) {
		s = capitalize(strings.TrimSpace(s))
		if s == "" || seen[strings.ToLower(s)] {
			return
		}
		seen[strings.ToLower(s)] = true
		*list = append(*list, s)
	}
	const (
		otherSection = iota + 1
		decisionSection
		actionSection
	)
	sections := map[string]int{} // what each section heading is, decided once
	for bi, b := range blocks {
		if b.kind == headingBlock {
			continue
		}
		if b.kind == itemBlock {
			kind := sections[b.section]
			if kind == 0 && b.task == 0 {
				kind = otherSection
				switch {
				case decisionHead.MatchString(b.section):
					kind = decisionSection
				case actionHead.MatchString(b.section):
					kind = actionSection
				}
				sections[b.section] = kind
			}
			switch {
			case b.task == 1:
				add(&actions, seenA, b.text)
				continue
			case b.task == 2:
				continue // done, not an open action
			case kind == decisionSection:
				add(&decisions, seenD, decisionMarker.ReplaceAllString(b.text, ""))
				continue
			case kind == actionSection:
				add(&actions, seenA, actionMarker.ReplaceAllString(b.text, ""))
				continue
			}
		}
		for _, s := range sents[bi] {
			exact := foldsExactly(s)
			switch {
			case (!exact || mayDecisionMarker(s)) && decisionMarker.MatchString(s):
				add(&decisions, seenD, decisionMarker.ReplaceAllString(s, ""))
			case (!exact || mayActionMarker(s)) && actionMarker.MatchString(s):
				add(&actions, seenA, actionMarker.ReplaceAllString(s, ""))
			case (!exact || mayDecisionWords(s)) && decisionWords.MatchString(s):
				add(&decisions, seenD, s)
			case (!exact || mayActionWords(s)) && actionWords.MatchString(s) || namedActor(s):
				add(&actions, seenA, s)
			}
		}
	}
	return decisions, actions
}

// foldsExactly reports whether the case-insensitive expressions below can
// be tested first with ASCII case folding (hasPrefixFold, containsFold):
// true unless s holds one of the two non-ASCII letters that fold to ASCII
// ones (ſ to s, the Kelvin sign to k), when the expression alone decides.
func foldsExactly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return !strings.Contains(s[i:], "\u017f") && !strings.Contains(s[i:], "\u212a")
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower
// case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerByte(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// containsFold is strings.Contains ignoring ASCII case; sub is lower case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerByte(s[i]) == sub[0] && hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}

// What a sentence must hold for the expressions of the same name to match
// it (when foldsExactly).
func mayDecisionMarker(s string) bool {
	return hasPrefixFold(s, "decision") || hasPrefixFold(s, "resolution") ||
		hasPrefixFold(s, "resolved") || hasPrefixFold(s, "agreed")
}

func mayActionMarker(s string) bool {
	return hasPrefixFold(s, "action") || strings.HasPrefix(s, "AI") || strings.HasPrefix(s, "TODO")
}

func mayDecisionWords(s string) bool {
	return containsFold(s, "decided") || containsFold(s, "agreed") || containsFold(s, "decision was")
}

func mayActionWords(s string) bool {
	return strings.Contains(s, "TODO") || strings.IndexByte(s, '@') >= 0 || containsFold(s, "action item")
}

var (
	actorWill = regexp.MustCompile(`^(\p{Lu}[\p{L}'-]+)\s+will\s+\p{Ll}`)
	notActors = map[string]bool{"It": true, "This": true, "That": true, "These": true, "Those": true,
		"There": true, "We": true, "They": true, "He": true, "She": true, "You": true, "I": true,
		"Nothing": true, "Everything": true, "Everyone": true, "Someone": true, "Nobody": true,
		"Each": true, "Every": true, "Any": true, "All": true, "The": true, "A": true, "An": true,
		"Which": true, "What": true, "Who": true, "Users": true, "Readers": true}
)

// namedActor finds "Tomás will write the fuzz test": a capitalised name
// (not a pronoun or determiner) that opens a sentence with "will".
func namedActor(s string) bool {
	if !strings.Contains(s, "will") {
		return false
	}
	m := actorWill.FindStringSubmatch(s)
	return m != nil && !notActors[m[1]]
}

// capitalize upper-cases the first letter left after a marker is stripped
// ("Resolution: all writes..." becomes "All writes...").
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if unicode.IsLower(r) {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}

// abbreviations end with a period but do not end a sentence.
var abbreviations = map[string]bool{
	"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "cf.": true, "mr.": true,
	"mrs.": true, "ms.": true, "dr.": true, "st.": true, "no.": true, "approx.": true,
	"fig.": true, "inc.": true, "ltd.": true, "jr.": true, "sr.": true, "eg.": true, "ie.": true,
}

// splitSentences splits at . ! ? followed by a space and a capital, digit
// or quote, except after a known abbreviation or a single initial.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == '"' || text[j] == '\'' || text[j] == ')') {
			j++
		}
		if j >= len(text) || text[j] != ' ' {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[min(j+1, len(text)):])
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '"' && r != '(' && r != '“' {
			continue
		}
		if c == '.' {
			w := text[strings.LastIndexByte(text[:i], ' ')+1 : i+1]
			if abbreviations[strings.ToLower(w)] || len(w) == 2 && unicode.IsUpper(rune(w[0])) {
				continue
			}
		}
		if s := strings.TrimSpace(text[start:j]); s != "" {
			out = append(out, s)
		}
		start = j + 1
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// A candidate is a sentence that may be picked as a key sentence.
type candidate struct {
	text      string
	order     int      // position in the document
	paraIdx   int      // index of its block among prose blocks
	firstInBl bool     // first sentence of its block
	item      bool     // from a list item
	quoted    bool     // from a blockquote
	words     []string // contentWords(text)
	score     float64
}

func candidates(blocks []block, sents [][]string) []candidate {
	var out []candidate
	seen := map[string]bool{}
	prose := 0
	for bi, b := range blocks {
		if b.kind == headingBlock {
			continue
		}
		for i, s := range sents[bi] {
			key := strings.ToLower(s)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, candidate{text: s, order: len(out), paraIdx: prose, firstInBl: i == 0, item: b.kind == itemBlock, quoted: b.quoted, words: contentWords(s)})
		}
		prose++
	}
	return out
}

func scoreSentences(title string, blocks []block, cands []candidate) {
	tf := map[string]int{}
	maxTF := 1
	for _, c := range cands {
		for _, w := range c.words {
			tf[w]++
			maxTF = max(maxTF, tf[w])
		}
	}
	titleWords := wordSet(title)
	headWords := map[string]bool{}
	for _, b := range blocks {
		if b.kind == headingBlock {
			for w := range wordSet(b.text) {
				headWords[w] = true
			}
		}
	}
	for i := range cands {
		c := &cands[i]
		words := c.words
		if len(words) == 0 {
			c.score = -1
			continue
		}
		var tfSum float64
		var inTitle, inHead int
		for _, w := range words {
			tfSum += float64(tf[w]) / float64(maxTF)
			if titleWords[w] {
				inTitle++
			}
			if headWords[w] {
				inHead++
			}
		}
		n := float64(len(words))
		score := tfSum / n                                                      // term frequency against the document
		score += 1.5 * float64(inTitle) / math.Max(1, float64(len(titleWords))) // about the title
		score += 0.5 * float64(inHead) / n                                      // about the headings
		score += 1.0 / math.Sqrt(1+float64(c.paraIdx))                          // early blocks lead
		if c.firstInBl {
			score += 0.2 // topic sentences
		}
		if c.item {
			score -= 0.1
		}
		if c.quoted {
			score *= 0.7
		}
		nw := countFields(c.text)
		switch { // length penalty: fragments and run-ons summarise badly
		case nw < 5:
			score *= 0.3
		case nw < 8:
			score *= 0.7
		case nw > 45:
			score *= 0.6
		case nw > 30:
			score *= 0.85
		}
		if !informative(c.text, len(words)) {
			score = 0
		}
		c.score = score
	}
}

func topSentences(cands []candidate, n int) []string {
	ranked := make([]int, len(cands))
	for i := range ranked {
		ranked[i] = i
	}
	slices.SortStableFunc(ranked, func(i, j int) int { return cmp.Compare(cands[j].score, cands[i].score) })
	var picked []candidate
	for _, i := range ranked {
		if len(picked) == n || cands[i].score <= 0 {
			break
		}
		picked = append(picked, cands[i])
	}
	sort.Slice(picked, func(i, j int) bool { return picked[i].order < picked[j].order })
	var out []string
	for _, c := range picked {
		out = append(out, c.text)
	}
	return out
}

// countFields is len(strings.Fields(s)) without building the slice.
func countFields(s string) int {
	n := 0
	inField := false
	for _, r := range s {
		space := r == ' ' || r >= '\t' && r <= '\r'
		if r >= utf8.RuneSelf {
			space = unicode.IsSpace(r)
		}
		if space {
			inField = false
		} else if !inField {
			inField = true
			n++
		}
	}
	return n
}

// summaryLine takes the first informative sentence that opens a prose
// block near the top (a source usually says what it is early on), unless a
// later one among the first few scores far better; then the best sentence
// anywhere; then the title.
func summaryLine(title string, cands []candidate) string {
	var early []int
	top := 0.0
	for i, c := range cands {
		if c.paraIdx > 6 {
			break
		}
		if c.item || c.quoted || !c.firstInBl || c.score <= 0 || len(strings.Fields(c.text)) < 5 {
			continue
		}
		early = append(early, i)
		top = math.Max(top, c.score)
	}
	best := -1
	for _, i := range early {
		if cands[i].score >= 0.6*top {
			best = i
			break
		}
	}
	if best < 0 {
		for i, c := range cands {
			if c.score > 0 && (best < 0 || c.score > cands[best].score) {
				best = i
			}
		}
	}
	line := strings.TrimSpace(title)
	if best >= 0 {
		line = strings.ReplaceAll(cands[best].text, "`", "")
	}
	return truncateLine(line, summaryLineMax)
}

var (
	metaLine = regexp.MustCompile(`^[\w][\w /&-]{0,24}:\s`) // "Date: ...", "Attendees: a, b"
	metaKey  = regexp.MustCompile(`(?i)^(?:subject|from|to|cc|date|time|when|where|location|attendees|present|participants|absent|author|owner|status|severity|duration|tags|reviewers|re)\s*:`)
	tocLine  = regexp.MustCompile(`(?i)^(table of contents|contents|toc)\b`)
)

// informative rejects sentences that say nothing about the content: tables
// of contents, metadata lines, link-only lines, bare URLs. words is the
// number of content words of s.
func informative(s string, words int) bool {
	exact := foldsExactly(s)
	if (!exact || mayTOC(s)) && tocLine.MatchString(s) {
		return false // a table of contents
	}
	if strings.IndexByte(s, ':') >= 0 { // metaKey, fieldSep and metaLine all need one
		if (!exact || mayMetaKey(s)) && metaKey.MatchString(s) || fieldSeps(s) >= 2 {
			return false // a header block, "a: x · b: y"
		}
		if loc := metaLine.FindStringIndex(s); loc != nil && len(strings.Fields(s[loc[1]:])) < 6 {
			return false
		}
	}
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return false
	}
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 12 && words >= 2
}

func mayTOC(s string) bool {
	return hasPrefixFold(s, "table of contents") || hasPrefixFold(s, "contents") || hasPrefixFold(s, "toc")
}

// metaKeys are the words metaKey accepts before its colon.
var metaKeys = map[string]bool{"subject": true, "from": true, "to": true, "cc": true, "date": true, "time": true,
	"when": true, "where": true, "location": true, "attendees": true, "present": true, "participants": true,
	"absent": true, "author": true, "owner": true, "status": true, "severity": true, "duration": true,
	"tags": true, "reviewers": true, "re": true}

func mayMetaKey(s string) bool {
	var buf [16]byte
	n := 0
	for n < len(s) && n < len(buf) && ('a' <= lowerByte(s[n]) && lowerByte(s[n]) <= 'z') {
		buf[n] = lowerByte(s[n])
		n++
	}
	return metaKeys[string(buf[:n])]
}

// fieldSeps counts, up to 3, the matches of fieldSep (a word character, a
// colon, white space) in s.
func fieldSeps(s string) int {
	n := 0
	for i := 1; i+1 < len(s) && n < 3; i++ {
		if s[i] != ':' {
			continue
		}
		c, d := s[i-1], s[i+1]
		if (c == '_' || '0' <= c && c <= '9' || 'a' <= lowerByte(c) && lowerByte(c) <= 'z') &&
			(d == ' ' || d == '\t' || d == '\n' || d == '\f' || d == '\r') {
			n++
		}
	}
	return n
}

func truncateLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)[:max-1]
	if i := strings.LastIndexByte(string(r), ' '); i > max/2 {
		return strings.TrimRight(string(r)[:i], " ,;:-") + "…"
	}
	return string(r) + "…"
}

// stopwords are ignored by scoring: they say nothing about the topic.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be
		because been before being below between both but by can could did do does doing down during each
		few for from further had has have having he her here hers him his how i if in into is it its itself
		just let me more most my no nor not now of off on once only or other our ours out over own same she
		should so some such than that the their theirs them then there these they this those through to too
		under until up very was we were what when where which while who whom why will with would you your
		yours use used using via may might must shall one two get got make made see`) {
		m[w] = true
	}
	return m
}()

// contentWords splits s into lower-cased words (runs of letters and
// digits), dropping one-letter words and stopwords, and stems them.
func contentWords(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if !wordRune(r) {
			i += n
			continue
		}
		j := i + n
		lower := r < utf8.RuneSelf && !('A' <= r && r <= 'Z')
		for j < len(s) {
			r, n = rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[j:])
			}
			if !wordRune(r) {
				break
			}
			if r >= utf8.RuneSelf || 'A' <= r && r <= 'Z' {
				lower = false
			}
			j += n
		}
		w := s[i:j]
		if !lower {
			w = lowerWord(w)
		}
		if len(w) > 1 && !stopwords[w] {
			out = append(out, stem(w))
		}
		i = j
	}
	return out
}

// lowerWord is strings.ToLower for one word, sparing the allocation for
// short ASCII stopwords ("The", "This"), the commonest capitalised words.
func lowerWord(w string) string {
	var buf [8]byte
	if len(w) > len(buf) {
		return strings.ToLower(w)
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return strings.ToLower(w)
		}
		buf[i] = lowerByte(w[i])
	}
	if stopwords[string(buf[:len(w)])] {
		return "" // dropped by the caller, like every word under two letters
	}
	return string(buf[:len(w)])
}

// wordRune reports whether r belongs to a word: a letter or a digit, in
// any case (lower-casing never turns one into the other).
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// stem folds the commonest English inflections so that "batches" counts
// for a title that says "batch"; it does not need to produce real words.
func stem(w string) string {
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed"):
		return w[:n-2]
	}
	return w
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range contentWords(s) {
		m[w] = true
	}
	return m
}
