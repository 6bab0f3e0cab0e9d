package retrieve

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// A space's pages define their acronyms the way writers do, "a Kubernetes
// Enhancement Proposal (KEP)", and then use the short form: "open a KEP",
// "ask the WG". Someone new to the space asks in the long form ("who
// approves a new working group?"), which the pages that use the short form
// never match. pt reads the definitions out of every page into the index
// (one "acronym" unit per definition, replaced with its page) and searches
// a question that spells out a long form with its short form too.

const typeAcronym = "acronym"

// maxPageAcronyms bounds the definitions kept from one page (a glossary
// has a few dozen), so that no page can fill the index with them.
const maxPageAcronyms = 100

// acronym is one definition: the short form's index term and the long
// form's index terms, in order.
type acronym struct {
	short string
	long  []string
}

// acronymRe finds a parenthesised short form: 2 to 10 letters or digits,
// starting with a letter.
var acronymRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(([A-Za-z][A-Za-z0-9]{1,9})\)`) })

// acronyms returns the definitions a page's text makes, each once, found
// with Schwartz and Hearst's algorithm (A Simple Algorithm for Identifying
// Abbreviation Definitions in Biomedical Text, 2003): the long form is the
// shortest run of words before the parentheses, in the same clause, whose
// letters hold the short form's in order, its first letter starting the
// first word. Short forms need two capitals ("WG", "KEPs", "CoCC"), so that
// a parenthesised word ("(optional)") is not taken for one.
func acronyms(text string) []acronym {
	var out []acronym
	seen := map[string]bool{}
	for _, m := range acronymRe().FindAllStringSubmatchIndex(text, -1) {
		short := text[m[2]:m[3]]
		if upper(short) < 2 {
			continue
		}
		before := text[max(0, m[0]-200):m[0]]
		if i := strings.LastIndexAny(before, ".;:!?\n()[]"); i >= 0 {
			before = before[i+1:]
		}
		words := strings.Fields(before)
		n := min(len(words), len(short)+5, 2*len(short))
		long := longForm(short, strings.Join(words[len(words)-n:], " "))
		if long == "" || len(strings.Fields(long)) < 2 {
			continue
		}
		st, lt := index.Terms(short), index.Terms(long)
		if len(st) != 1 || len(lt) < 2 || slices.Contains(lt, st[0]) {
			continue
		}
		key := st[0] + "\t" + strings.Join(lt, " ")
		if !seen[key] {
			seen[key] = true
			out = append(out, acronym{short: st[0], long: lt})
			if len(out) == maxPageAcronyms {
				break
			}
		}
	}
	return out
}

func upper(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n
}

// longForm matches short's letters and digits right to left against
// candidate, and returns the words from the one where the short form's
// first character begins a word to the end; "" when there is none.
func longForm(short, candidate string) string {
	s, l := []rune(strings.ToLower(short)), []rune(strings.ToLower(candidate))
	li := len(l) - 1
	for si := len(s) - 1; si >= 0; si-- {
		c := s[si]
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			continue
		}
		for li >= 0 && (l[li] != c || (si == 0 && li > 0 && (unicode.IsLetter(l[li-1]) || unicode.IsDigit(l[li-1])))) {
			li--
		}
		if li < 0 {
			return ""
		}
		li--
	}
	start := strings.LastIndex(string(l[:li+1]), " ") + 1
	return strings.TrimSpace(string(l)[start:])
}

// acronymDocs are the index units of a page's definitions.
func acronymDocs(p, rev, status string, body string) []index.Doc {
	var docs []index.Doc
	for _, a := range acronyms(body) {
		docs = append(docs, index.Doc{ID: p + "#acronym:" + a.short + ":" + strings.Join(a.long, "-"), Path: p, Type: typeAcronym,
			Revision: rev, Status: status, Acronym: a.short + "\t" + strings.Join(a.long, " "), Expands: a.long})
	}
	return docs
}

// maxAcronymDocs bounds the definitions read for one question: every page
// that defines a long form holds its own copy, and a common word ("group")
// finds them all.
const maxAcronymDocs = 1000

// expandAcronyms returns the definitions whose long forms the question
// spells out, as the space defines them, leaving out short forms the
// question already uses; one per short form.
func expandAcronyms(ctx context.Context, ix *index.Index, question string) ([]acronym, error) {
	terms := index.Terms(question)
	docs, err := ix.Lookup(ctx, typeAcronym, terms, maxAcronymDocs)
	if err != nil {
		return nil, err
	}
	joined := " " + strings.Join(terms, " ") + " "
	var out []acronym
	for _, d := range docs {
		short, long, ok := strings.Cut(d.Acronym, "\t")
		if !ok || slices.Contains(terms, short) || slices.ContainsFunc(out, func(a acronym) bool { return a.short == short }) {
			continue
		}
		if strings.Contains(joined, " "+long+" ") {
			out = append(out, acronym{short: short, long: strings.Fields(long)})
		}
	}
	slices.SortFunc(out, func(a, b acronym) int { return strings.Compare(a.short, b.short) })
	return out, nil
}

// heldAs reports whether set holds t, or the short form of a definition
// whose long form has t: a page that says "WG" holds the "working" and
// "group" of a question that says "working group".
func heldAs(set map[string]bool, t string, defs []acronym) bool {
	if set[t] {
		return true
	}
	for _, a := range defs {
		if set[a.short] && slices.Contains(a.long, t) {
			return true
		}
	}
	return false
}
