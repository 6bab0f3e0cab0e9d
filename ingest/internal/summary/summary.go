package summary

import (
	"strings"

	"github.com/ptwiki/pt/content"
)

// Options tunes Summarize. The zero value is ready to use.
type Options struct {
	// MaxSentences is the number of key sentences; 0 means 5.
	MaxSentences int
	// MaxOutline caps the number of headings in the outline; 0 means 40.
	MaxOutline int
	// Kind is the source's kind (decision, meeting-notes, postmortem, doc,
	// chat, other); "" is other.
	Kind string
}

// Summary is an extractive summary of a source: sentences and lines taken
// from the text, never invented, so that a summary page can be produced
// without a model and is reproducible byte for byte.
type Summary struct {
	// Line is one line (at most LineMax characters) for spokes and
	// search results.
	Line string `json:"line"`
	// Lead is what a reader of the source's kind needs first: the decision
	// and its reason, a postmortem's impact and cause, a procedure's goal,
	// the conclusion of a chat (a meeting's lead is its decisions and
	// action items, which have sections of their own).
	Lead         []string `json:"lead,omitempty"`
	KeySentences []string `json:"key_sentences,omitempty"`
	// Outline holds the headings, each "- text" indented two spaces per
	// level below the shallowest.
	Outline   []string `json:"outline,omitempty"`
	Decisions []string `json:"decisions,omitempty"`
	Actions   []string `json:"actions,omitempty"`
}

// LineMax bounds Summary.Line: a spoke lists one line per page, and
// search results show it under the title.
const LineMax = 160

// Summarize builds an extractive summary of a Markdown body. It skips
// frontmatter, code, tables and HTML; reduces links and emphasis to their
// text; scores sentences by position, overlap with the title and the
// headings, term frequency and length; and lifts out decisions and action
// items by their usual markers. It is deterministic, and its text holds no
// control characters (content.Inert).
func Summarize(title string, body []byte, opts Options) Summary {
	if opts.MaxSentences <= 0 {
		opts.MaxSentences = 5
	}
	if opts.MaxOutline <= 0 {
		opts.MaxOutline = 40
	}
	// A source is kept verbatim, but what is derived from it is inert: a
	// terminal escape or a bell in the source never reaches a summary, a
	// spoke or what pt prints.
	title = content.Inert(title)
	blocks := parseBlocks(content.Inert(string(body)))
	var s Summary
	s.Outline = outline(title, blocks, opts.MaxOutline)
	sents := sentences(blocks)
	s.Decisions, s.Actions = decisionsAndActions(blocks, sents)
	kind := kindOf(opts.Kind, title, blocks)
	s.Lead = lead(kind, title, blocks, sents, s.Decisions, s.Actions)
	cands := candidates(blocks, sents)
	scoreSentences(title, blocks, cands)
	if kind != kindChat { // a chat's sentences run across its messages
		s.KeySentences = without(topSentences(cands, opts.MaxSentences), s.Lead)
	}
	s.Line = summaryLine(title, cands)
	if len(s.Lead) > 0 {
		s.Line = truncateLine(strings.ReplaceAll(s.Lead[0], "`", ""), LineMax)
	}
	s.fit(int(maxBodyShare * float64(len(strings.TrimSpace(string(body))))))
	return s
}

// maxBodyShare bounds a summary's body against its source's: a summary
// longer than what it summarises helps nobody.
const maxBodyShare = 0.8

// fit drops what matters least (the outline's last headings, then the key
// points, then the lead's, the decisions' and the actions' last lines)
// until the body holds in limit bytes.
func (s *Summary) fit(limit int) {
	for _, list := range []*[]string{&s.Outline, &s.KeySentences, &s.Actions, &s.Decisions, &s.Lead} {
		for len(*list) > 0 && len(s.Markdown()) > limit {
			*list = (*list)[:len(*list)-1]
		}
	}
}

// without returns xs less the items of drop.
func without(xs, drop []string) []string {
	var out []string
	for _, x := range xs {
		if !containsFoldAll(drop, x) {
			out = append(out, x)
		}
	}
	return out
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
	section("In short", without(s.Lead, append(append([]string(nil), s.Decisions...), s.Actions...)), true)
	section("Decisions", s.Decisions, true)
	section("Action items", s.Actions, true)
	section("Key points", s.KeySentences, true)
	section("Outline", s.Outline, false)
	return b.String()
}
