package summary

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
)

// outline lists the page's headings, indented by level, for the summary's
// Outline section: a reader sees what the source covers before opening it.
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
	words     []string // content.Words(text)
	score     float64
}

func candidates(blocks []block, sents [][]string) []candidate {
	n := 0
	for _, ss := range sents {
		n += len(ss)
	}
	out := make([]candidate, 0, n)
	seen := make(map[string]bool, n)
	prose := 0
	for bi, b := range blocks {
		if b.kind == headingBlock || b.row {
			continue
		}
		for i, s := range sents[bi] {
			key := strings.ToLower(s)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, candidate{text: s, order: len(out), paraIdx: prose, firstInBl: i == 0, item: b.kind == itemBlock, quoted: b.quoted, words: content.Words(s)})
		}
		prose++
	}
	return out
}

func scoreSentences(title string, blocks []block, cands []candidate) {
	n := 0
	for _, c := range cands {
		n += len(c.words)
	}
	tf := make(map[string]int, n)
	maxTF := 1
	for _, c := range cands {
		for _, w := range c.words {
			f := tf[w] + 1
			tf[w] = f
			maxTF = max(maxTF, f)
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
	return truncateLine(line, LineMax)
}

var (
	metaLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w][\w /&-]{0,24}:\s`) }) // "Date: ...", "Attendees: a, b"
	metaKey  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:subject|from|to|cc|date|time|when|where|location|attendees|present|participants|absent|author|owner|status|severity|duration|tags|reviewers|re)\s*:`)
	})
	tocLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(table of contents|contents|toc)\b`) })
)

// informative rejects sentences that say nothing about the content: tables
// of contents, metadata lines, link-only lines, bare URLs. words is the
// number of content words of s.
func informative(s string, words int) bool {
	exact := foldsExactly(s)
	if (!exact || mayTOC(s)) && tocLine().MatchString(s) {
		return false // a table of contents
	}
	if strings.IndexByte(s, ':') >= 0 { // metaKey, fieldSep and metaLine all need one
		if (!exact || mayMetaKey(s)) && metaKey().MatchString(s) || fieldSeps(s) >= 2 {
			return false // a header block, "a: x · b: y"
		}
		if loc := metaLine().FindStringIndex(s); loc != nil && len(strings.Fields(s[loc[1]:])) < 6 {
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

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range content.Words(s) {
		m[w] = true
	}
	return m
}
