package lint

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// MinConceptPages is how many pages must use a term before a missing page
// about it is reported, unless kb.yaml curate.min_pages says otherwise.
const MinConceptPages = 4

// maxConceptShare: a term on more than this share of the pages is the
// space's own vocabulary (its product's name), not a concept that lacks a
// page.
const maxConceptShare = 0.3

// missingConcepts reports terms that at least MinPages active pages of
// current guidance use and that no page title, heading, file name or
// spoke names.
func (cs *curSpace) missingConcepts(emit func(Finding)) {
	names := map[string]bool{}
	addName := func(s string) {
		ws := strings.Fields(nameKey(s))
		for i := range ws {
			for j := i + 1; j <= len(ws) && j <= i+5; j++ {
				names[strings.Join(ws[i:j], " ")] = true
			}
		}
	}
	for _, p := range cs.all {
		addName(p.f.Title)
		addName(content.TitleFromPath(p.path))
		addName(splitCamel(content.TitleFromPath(p.path)))
		for _, h := range p.f.Headings {
			addName(h)
		}
	}
	type use struct {
		display string
		pages   []string
	}
	uses := map[string]*use{}
	counted := 0
	for _, p := range cs.pages {
		if p.claimsCount() && !wiki.IsIndexPage(p.path) {
			counted++
		}
	}
	// Lower-case phrases count as terms when they hang together: most
	// pages that use their rarest word use the phrase ("soak period"),
	// which ordinary word pairs ("new contributor") do not.
	wordPages := map[string]int{}
	for _, p := range cs.pages {
		if !p.claimsCount() || wiki.IsIndexPage(p.path) {
			continue
		}
		for _, wc := range p.f.Bag {
			wordPages[wc.W]++
		}
		for _, ph := range p.f.Phrases {
			u := uses[ph]
			if u == nil {
				u = &use{display: ph}
				uses[ph] = u
			}
			u.pages = append(u.pages, p.path)
		}
	}
	keys := make([]string, 0, len(uses))
	for k, u := range uses {
		if families(u.pages, cs.byPath) < cs.opts.MinPages || float64(len(u.pages)) > maxConceptShare*float64(max(counted, 50)) {
			continue
		}
		if families(current(u.pages), cs.byPath) < cs.opts.MinPages || names[nameKey(k)] {
			continue
		}
		if !cohesive(k, len(u.pages), wordPages) || !termLike(k) || templateText(u.pages) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	keys = longest(keys, func(k string) int { return len(uses[k].pages) })
	for _, k := range keys {
		u := uses[k]
		sort.Strings(u.pages)
		ev := make([]Evidence, 0, 3)
		for _, p := range u.pages[:min(3, len(u.pages))] {
			ev = append(ev, Evidence{Path: p, Revision: cs.byPath[p].blob})
		}
		msg := fmt.Sprintf("%q is used by %d pages (%s) but no page title, heading or spoke names it", u.display, len(u.pages), strings.Join(u.pages[:min(3, len(u.pages))], ", "))
		if len(u.pages) > 3 {
			msg = strings.Replace(msg, ")", ", ...)", 1)
		}
		emit(Finding{Check: CheckMissingConcept, Path: wiki.HubPath, Target: k, Message: msg, Evidence: ev})
	}
}

// addressWord reports whether a word addresses the reader or speaks for
// the writers ("familiarize yourself"): a way of writing, not a term.
func addressWord(w string) bool {
	switch w {
	case "you", "your", "yourself", "yours", "we", "our", "us", "my":
		return true
	}
	return false
}

// termLike reports whether a phrase can name a concept: no word of it
// addresses the reader, is a possessive or contraction ("day's
// schedule") or holds a digit ("99th percentile", "5000-node cluster"),
// which name a measure, not a concept; and it does not open with an
// adverb in -ly ("mutually exclusive"), which makes it a way of saying
// something rather than a noun.
func termLike(phrase string) bool {
	ws := strings.Fields(phrase)
	if len(ws) > 0 && len(ws[0]) > 4 && strings.HasSuffix(ws[0], "ly") {
		return false
	}
	for _, w := range ws {
		if addressWord(w) || strings.ContainsAny(w, "'0123456789") {
			return false
		}
	}
	return true
}

// nameKey folds a title, heading or phrase so that a name matches a term
// in any inflection and spelling of it: "Backporting issues" names
// "backport issue", "First class ports" names "first-class port".
func nameKey(s string) string {
	ws := words(strings.ReplaceAll(s, "-", " "))
	for i, w := range ws {
		w = singular(w)
		for _, suf := range []string{"ing", "ed"} {
			if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
				w = strings.TrimSuffix(w, suf)
				break
			}
		}
		ws[i] = w
	}
	return strings.Join(ws, " ")
}

// templateText reports whether most pages using a phrase share one file
// name across folders (every group's README.md or charter.md, every
// year's annual-report-2021.md): the phrase is a template's boilerplate,
// said the same way on each copy, not a concept of the space.
func templateText(pages []string) bool {
	names := map[string]int{}
	most := 0
	for _, p := range pages {
		n := strings.ToLower(strings.TrimRight(strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return '#'
			}
			return r
		}, path.Base(p)), "#"))
		names[n]++
		most = max(most, names[n])
	}
	return most >= 3 && 2*most >= len(pages)
}

// splitCamel puts spaces into a CamelCase name (CodeReview → Code Review).
func splitCamel(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// phraseCohesion is the share of the pages using a phrase's rarest word
// that must use the phrase itself.
const phraseCohesion = 0.8

// cohesive reports whether a phrase is a term of its own: the pages that
// use it are most of those that use its rarest word.
func cohesive(phrase string, pages int, wordPages map[string]int) bool {
	rarest := 0
	for _, w := range strings.Fields(phrase) {
		n := wordPages[singular(w)]
		if n == 0 {
			n = wordPages[w]
		}
		if rarest == 0 || n < rarest {
			rarest = n
		}
	}
	return rarest > 0 && float64(pages) >= phraseCohesion*float64(rarest)
}

// families counts pages, a dated family (yearly reports, meeting notes)
// as one: a series repeating a phrase is one use of it.
func families(paths []string, byPath map[string]*curPage) int {
	seen := map[string]bool{}
	for _, p := range paths {
		k := p
		if f := byPath[p].family; f != "" {
			k = f
		}
		seen[k] = true
	}
	return len(seen)
}

// current keeps the pages that are current guidance, not records
// (meeting notes, archived pages): a term that records mention in
// passing is not one the space's guidance lacks a page for.
func current(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !recordPath(p) {
			out = append(out, p)
		}
	}
	return out
}

// longest drops a phrase that a longer reported phrase holds on as many
// pages ("maximal representation" inside "thus maximal representation").
func longest(keys []string, pages func(string) int) []string {
	var out []string
	for _, k := range keys {
		held := false
		for _, o := range keys {
			if o != k && pages(o) == pages(k) && strings.Contains(" "+o+" ", " "+k+" ") {
				held = true
				break
			}
		}
		if !held {
			out = append(out, k)
		}
	}
	return out
}
