package lint

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// sentence is one unit of a page's prose: a sentence of a paragraph, a
// list item or a table row, with the line it starts on (in the file).
type sentence struct {
	Line int
	Text string
	// wraps are where the text goes on to a new line of the file, so that
	// a value is cited on its own line (not kept in the cache).
	wraps []lineStart
}

// lineOf is the file line that a byte of the sentence's text is on.
func (s sentence) lineOf(off int) int {
	line := s.Line
	for _, w := range s.wraps {
		if w.off > off {
			break
		}
		line = w.line
	}
	return line
}

// maxCurateBytes bounds how much of a page the curation reads: an
// enormous page (a generated dump, a log) is curated on its head only, so
// that one file cannot hold a run.
const maxCurateBytes = 256 << 10

// mdLinkRe is a Markdown link or image; its text stays, its target goes.
var mdLinkRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`) })

// urlRe is a bare URL: its digits are not claims.
var urlRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:https?|ftp)://\S+|\bwww\.\S+`) })

// htmlTagRe is an inline HTML tag.
var htmlTagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[a-zA-Z][^>]*>`) })

// plainInline turns a line of Markdown into its prose: links keep their
// text, URLs, tags and emphasis marks go, code spans keep their text.
func plainInline(s string) string {
	if strings.ContainsAny(s, "[]") {
		s = mdLinkRe().ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "://") || strings.Contains(s, "www.") {
		s = urlRe().ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "<") {
		s = htmlTagRe().ReplaceAllString(s, " ")
	}
	s = strings.NewReplacer("**", "", "__", "", "`", "", "*", "").Replace(s)
	return strings.TrimSpace(s)
}

// segment splits a page body into sentences and headings. Code blocks,
// HTML comments and tables, and front matter are not prose and are
// skipped. first is
// the file line the body starts on.
func segment(body []byte, first int) (sents []sentence, headings []sentence) {
	text := string(body)
	if len(text) > maxCurateBytes {
		text = text[:maxCurateBytes]
		for len(text) > 0 && !utf8.ValidString(text[len(text)-1:]) {
			text = text[:len(text)-1]
		}
	}
	var para strings.Builder
	paraLine := 0
	var starts []lineStart // where each line of the paragraph starts in para
	flush := func() {
		if para.Len() > 0 {
			sents = append(sents, splitSentences(para.String(), starts)...)
		}
		para.Reset()
		starts = starts[:0]
		paraLine = 0
	}
	fence, comment, table := "", false, false
	for i, raw := range strings.Split(text, "\n") {
		line := first + i
		t := strings.TrimSpace(raw)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case comment:
			if strings.Contains(t, "-->") {
				comment = false
			}
			continue
		case table:
			table = !strings.Contains(t, "</table>")
			continue
		case strings.HasPrefix(t, "<table"):
			// An HTML table is data: its cells would run together
			// into one sentence of words that say nothing.
			flush()
			table = !strings.Contains(t, "</table>")
			continue
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			flush()
			fence = t[:3]
			continue
		case strings.HasPrefix(t, "<!--"):
			flush()
			comment = !strings.Contains(t, "-->")
			continue
		case t == "":
			flush()
			continue
		case strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t"):
			if para.Len() == 0 {
				continue // an indented code block
			}
		}
		if strings.HasPrefix(t, "#") {
			flush()
			h := strings.TrimSpace(strings.Trim(t, "#"))
			if h != "" {
				headings = append(headings, sentence{Line: line, Text: plainInline(h)})
			}
			continue
		}
		if isTableRule(t) {
			continue
		}
		if item, ok := listItem(t); ok || strings.HasPrefix(t, "|") {
			flush()
			if ok {
				t = item
			} else {
				t = strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '|' }), " ; ")
			}
		}
		t = strings.TrimLeft(t, "> ")
		if paraLine == 0 {
			paraLine = line
		} else {
			para.WriteByte(' ')
		}
		starts = append(starts, lineStart{off: para.Len(), line: line})
		para.WriteString(plainInline(t))
	}
	flush()
	return sents, headings
}

// lineStart maps an offset of a paragraph's text to the file line there.
type lineStart struct{ off, line int }

// splitSentences cuts a paragraph at sentence ends: ".", "!" or "?"
// followed by spaces and a capital letter or a digit. Abbreviations and
// versions ("e.g. x", "Go 1.21 is") do not end one.
func splitSentences(p string, starts []lineStart) []sentence {
	var out []sentence
	begin := 0
	emit := func(end int) {
		s := strings.TrimSpace(p[begin:end])
		if len(s) > 1 {
			at := begin + len(p[begin:end]) - len(strings.TrimLeft(p[begin:end], " "))
			sn := sentence{Line: lineAt(starts, at), Text: s}
			for _, st := range starts {
				if st.off > at && st.off < at+len(s) {
					sn.wraps = append(sn.wraps, lineStart{off: st.off - at, line: st.line})
				}
			}
			out = append(out, sn)
		}
		begin = end
	}
	for i := 0; i < len(p)-2; i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' && c != ';' {
			continue
		}
		if p[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(strings.TrimLeft(p[i+1:], " "))
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && c != ';' {
			continue
		}
		if c == '.' && abbreviation(p[:i]) {
			continue
		}
		emit(i + 1)
	}
	emit(len(p))
	return out
}

func lineAt(starts []lineStart, off int) int {
	line := 0
	for _, s := range starts {
		if s.off > off {
			break
		}
		line = s.line
	}
	return line
}

// abbreviation reports whether the text before a period ends with a short
// abbreviation (e.g, i.e, etc, vs, a single letter).
func abbreviation(before string) bool {
	i := strings.LastIndexAny(before, " (")
	w := strings.ToLower(before[i+1:])
	switch w {
	case "e.g", "i.e", "etc", "vs", "cf", "approx", "no", "dr", "mr", "ms", "st":
		return true
	}
	return utf8.RuneCountInString(w) == 1
}

// listItem returns the text of a list item line.
func listItem(t string) (string, bool) {
	if len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return strings.TrimSpace(t[2:]), true
	}
	i := 0
	for i < len(t) && i < 4 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return strings.TrimSpace(t[i+2:]), true
	}
	return "", false
}

// isTableRule reports whether a line is a table's header rule (|---|:--|).
func isTableRule(t string) bool {
	if !strings.HasPrefix(t, "|") && !strings.HasPrefix(t, ":-") && !strings.HasPrefix(t, "--") {
		return false
	}
	return strings.Trim(t, "|-: ") == ""
}

// words splits text into lower-cased words of letters and digits; a word
// keeps inner dots, hyphens and apostrophes (1.21, go.mod, code-review).
func words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		inner := (r == '.' || r == '-' || r == '\'' || r == '_') && start >= 0
		if unicode.IsLetter(r) || unicode.IsDigit(r) || inner {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, strings.ToLower(strings.Trim(s[start:i], ".-'_")))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(strings.Trim(s[start:], ".-'_")))
	}
	return out
}
