package lint

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// claim is a sentence that states a value about a subject: the subject is
// the sentence's content words (its frame) without the value, so that
// "deploys freeze at 14:00 UTC" and "the deploy freeze is at 16:00 UTC"
// share one.
type claim struct {
	Line  int
	Kind  byte
	Unit  string
	Value string
	Frame []string // distinct content words, value words left out, sorted
	// Context is the words of the page's title and the claim's headings
	// that its own words lack, sorted: what it is about when it does not
	// say (a page named Watchflakes: "it considers the past 60 days").
	Context []string
	Bound   byte // '>' the value is a least ("at least 3 months"), '<' a most, 0 exact
	Text    string
}

// maxClaimValues: a sentence listing more values of one kind than this,
// or more than maxSentenceValues in all, is a table or a schedule, not a
// claim about one subject.
const (
	maxClaimValues    = 2
	maxSentenceValues = 4
)

// minOwnFrame: a claim whose own words say less than this about what its
// value is of is about its section or page ("- Member for at least 3
// months" under "Reviewer"), whose title and headings join its frame.
const minOwnFrame = 4

// claimsOf returns the claims of a sentence, one per value it states.
// title is the words of the page's title, which a sentence need not
// repeat to be about it ("it considers the past 60 days" on a page named
// Watchflakes); context is the words of the headings it is under.
func claimsOf(s sentence, vals []value, title, context []string) []claim {
	if len(vals) == 0 || len(vals) > maxSentenceValues {
		return nil
	}
	kinds := map[string]int{}
	for _, v := range vals {
		kinds[string(v.Kind)+v.Unit]++
		if kinds[string(v.Kind)+v.Unit] > maxClaimValues {
			return nil
		}
	}
	var out []claim
	for _, v := range vals {
		if (v.Kind == valDate || v.Kind == valVersion) && asOfRe().MatchString(s.Text[:v.start]) {
			continue // "as of Go 1.16, ...", "before 2019": when, not what
		}
		// The other values of the sentence qualify the subject ("for Go
		// 1.24 and later: kernel 3.2"): they join its frame as words.
		var quals []string
		rest := s.Text[:v.start] + " " + v.keep + " " + s.Text[v.end:]
		rest = quotedRe().ReplaceAllString(rest, " ") // a cited title is not the subject
		for _, o := range vals {
			if o != v {
				rest = strings.Replace(rest, s.Text[o.start:o.end], " "+o.keep+" ", 1)
				quals = append(quals, string(o.Kind)+":"+o.Unit+"="+o.Norm)
			}
		}
		fr := frame(rest)
		ctx := title
		if len(fr) < minOwnFrame {
			ctx = append(slices.Clone(title), context...)
		}
		if len(fr) == 0 || len(fr)+len(ctx) < 2 {
			continue // too little said about what the value is of
		}
		fr = append(fr, quals...)
		sort.Strings(fr)
		fr = slices.Compact(fr)
		unit := v.Unit
		if unit == "linux kernel" {
			unit = "kernel"
		}
		out = append(out, claim{Line: s.lineOf(v.start), Kind: v.Kind, Unit: unit, Value: v.Norm, Frame: fr,
			Context: missing(ctx, fr), Bound: boundOf(s.Text, v), Text: clip(s.Text, 300)})
	}
	return out
}

var (
	// asOfRe ends a text that makes the next value the time a sentence
	// speaks of: "As of Go 1.16, ...", "since 2019".
	asOfRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:as of|since|prior to|before|after|until|starting (?:with|in|from)|beginning (?:with|in))\s*$`)
	})
)

// frame is the distinct content words of a text, folded and sorted.
func frame(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(s) {
		w = singular(w)
		if stopWords[w] || len(w) < 2 || isNumber(w) {
			continue
		}
		w = stem(w)
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// stem folds a word's common endings and cuts it to six letters, so that
// "respond" and "response", "merge" and "merged", "inactive" and
// "inactivity" are one word of a frame.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "e"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) > 6 && !strings.ContainsAny(w, ".-_'0123456789") && utf8.ValidString(w[:6]) {
		w = w[:6]
	}
	return w
}

func isNumber(w string) bool {
	return strings.Trim(w, "0123456789.,:") == ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n-1]&0xC0 == 0x80 {
		n--
	}
	if n > 0 && s[n-1] >= 0xC0 {
		n--
	}
	return s[:n] + "…"
}

// minCover is how much of the larger of two claims' frames the words
// they share must weigh.
const minCover = 0.25

// ContradictionSimilarity is how much of the smaller of two claims'
// frames (its words weighted by rarity) the other must share for the two
// to be about the same subject.
const ContradictionSimilarity = 0.5

// templatePages: a claim said alike (with its own value) on this many pages
// of other folders is a template's field ("Regular meeting: Tuesdays at
// ..." in every group's README), whose subject is each page's own; such
// claims conflict only within one folder, and there only when fewer
// than this many pages of the folder say it alike.
const templatePages = 3

// claimRef is a claim and the page it is on.
type claimRef struct {
	page *curPage
	c    *claim
}

// contradictions pairs claims of two active pages that say different
// values of one kind about the same subject. Claims are bucketed by each
// of their rarest frame words, so that only plausible pairs are compared.
func (cs *curSpace) contradictions(emit func(Finding)) {
	var refs []claimRef
	df := map[string]int{}
	for _, p := range cs.pages {
		// A page named for its date (meeting notes, a year's report) is
		// a record of its time: it disagrees with no page.
		if !p.claimsCount() || recordPath(p.path) {
			continue
		}
		for i := range p.f.Claims {
			c := &p.f.Claims[i]
			refs = append(refs, claimRef{p, c})
			for _, w := range c.Frame {
				df[w]++
			}
			for _, w := range c.Context {
				df[w]++
			}
		}
	}
	weight := func(w string) float64 { return math.Log(1 + float64(len(refs))/float64(df[w])) }
	similar, alike, kin := similarClaims(refs, weight)
	var found []conflict
	for _, pr := range similar {
		a, b := refs[pr.a], refs[pr.b]
		if path.Dir(a.page.path) != path.Dir(b.page.path) && (len(alike[pr.a]) >= templatePages || len(alike[pr.b]) >= templatePages) {
			continue
		}
		// A template filled in by every page of one folder (each role's
		// handbook: "time commitment: 5-10 hours") is each page's own.
		if len(kin[pr.a]) >= templatePages && len(kin[pr.b]) >= templatePages {
			continue
		}
		if c, ok := cs.conflicting(a, b, weight); ok {
			found = append(found, c)
		}
	}
	emitConflicts(found, emit)
}

// maxPosting: a word that this many claims of one kind use is too common
// to find a claim's likes by.
const maxPosting = 400

// claimPair is two claims by their index, a < b.
type claimPair struct{ a, b int }

// similarClaims finds the pairs of claims of one kind and unit, on
// different pages, whose subjects are alike (claimSimilarity), and for
// each claim the pages of other folders (alike) and of its own folder
// (kin) with a claim like it. Each claim is looked up by its heaviest
// words only, enough of them that a claim sharing none cannot reach
// ContradictionSimilarity of it (prefix filtering); a claim is compared
// with the claims whose own words weigh at least as much.
func similarClaims(refs []claimRef, weight func(string) float64) (similar []claimPair, alike, kin []map[string]bool) {
	postings := map[string][]int{}
	own := make([]float64, len(refs))
	for i, r := range refs {
		own[i] = sumWeight(r.c.Frame, weight)
		key := string(r.c.Kind) + r.c.Unit + "\x00"
		for _, w := range r.c.Frame {
			postings[key+w] = append(postings[key+w], i)
		}
		for _, w := range r.c.Context {
			postings[key+w] = append(postings[key+w], i)
		}
	}
	alike = make([]map[string]bool, len(refs))
	kin = make([]map[string]bool, len(refs))
	note := func(i, j int) {
		at := alike
		if path.Dir(refs[i].page.path) == path.Dir(refs[j].page.path) {
			at = kin
		}
		if at[i] == nil {
			at[i] = map[string]bool{}
		}
		at[i][refs[j].page.path] = true
	}
	visited := make([]int, len(refs))
	for i, r := range refs {
		key := string(r.c.Kind) + r.c.Unit + "\x00"
		for _, w := range heaviest(r.c, own[i]*ContradictionSimilarity, weight) {
			post := postings[key+w]
			if len(post) > maxPosting {
				continue
			}
			for _, j := range post {
				if j == i || visited[j] == i+1 || refs[j].page == r.page || own[j] < own[i] || (own[j] == own[i] && j < i) {
					continue
				}
				visited[j] = i + 1
				if claimSimilarity(r.c, refs[j].c, weight) < ContradictionSimilarity {
					continue
				}
				similar = append(similar, claimPair{min(i, j), max(i, j)})
				note(i, j)
				note(j, i)
			}
		}
	}
	slices.SortFunc(similar, func(x, y claimPair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	return similar, alike, kin
}

// heaviest returns a claim's heaviest words (its own and its context's),
// as many as it takes for the rest to weigh less than need.
func heaviest(c *claim, need float64, weight func(string) float64) []string {
	ws := append(slices.Clone(c.Frame), c.Context...)
	sort.SliceStable(ws, func(a, b int) bool { return weight(ws[a]) > weight(ws[b]) })
	rest := sumWeight(ws, weight)
	for k, w := range ws {
		if rest < need {
			return ws[:k]
		}
		rest -= weight(w)
	}
	return ws
}

// conflict is a pair of claims that disagree, and how alike their
// subjects are.
type conflict struct {
	a, b claimRef
	sim  float64
}

// emitConflicts reports the conflicts, the most alike subjects first; a
// line of a page takes part in one finding about another page, so that a
// sentence is not reported once for each of that page's values.
func emitConflicts(found []conflict, emit func(Finding)) {
	slices.SortStableFunc(found, func(x, y conflict) int { return cmp.Compare(y.sim, x.sim) })
	used := map[string]bool{}
	for _, c := range found {
		a, b := c.a, c.b
		ka := fmt.Sprintf("%s:%d\x00%s", a.page.path, a.c.Line, b.page.path)
		kb := fmt.Sprintf("%s:%d\x00%s", b.page.path, b.c.Line, a.page.path)
		if used[ka] || used[kb] {
			continue
		}
		used[ka], used[kb] = true, true
		shared := intersect(a.c.Frame, b.c.Frame)
		target := b.page.path + "#" + string(a.c.Kind) + a.c.Unit + ":" + strings.Join(shared, " ")
		msg := fmt.Sprintf("states %s where %s:%d states %s: %q / %q", showValue(a.c), b.page.path, b.c.Line, showValue(b.c), a.c.Text, b.c.Text)
		emit(Finding{Check: CheckContradiction, Path: a.page.path, Line: a.c.Line, Target: target, Message: msg,
			Evidence: []Evidence{
				{Path: a.page.path, Line: a.c.Line, Revision: a.page.blob, Value: a.c.Value, Text: a.c.Text},
				{Path: b.page.path, Line: b.c.Line, Revision: b.page.blob, Value: b.c.Value, Text: b.c.Text},
			}})
	}
}

// claimSimilarity is the weight of the words two claims share over the
// weight of the smaller claim's own words. A word one claim says and the
// other's page or section says for it counts as shared too: the subject a
// sentence leaves to its page's title or heading. The sentences must
// share two words of their own (values aside), and the shared words must
// weigh minCover of the larger claim.
func claimSimilarity(a, b *claim, weight func(string) float64) float64 {
	shared := intersect(a.Frame, b.Frame)
	words := 0
	for _, w := range shared {
		if !strings.Contains(w, ":") {
			words++
		}
	}
	if words < 2 {
		return 0 // the sentences themselves share too little
	}
	shared = append(shared, intersect(a.Frame, b.Context)...)
	shared = append(shared, intersect(a.Context, b.Frame)...)
	if len(shared) < 2 {
		return 0
	}
	wa, wb, ws := sumWeight(a.Frame, weight), sumWeight(b.Frame, weight), sumWeight(shared, weight)
	if min(wa, wb) == 0 || ws < minCover*max(wa, wb) {
		return 0 // a few words of a long sentence are not its subject
	}
	return min(1, ws/min(wa, wb))
}

func sumWeight(ws []string, weight func(string) float64) float64 {
	t := 0.0
	for _, w := range ws {
		t += weight(w)
	}
	return t
}

// missing returns the words of ws (distinct) that are not in the sorted
// list have, sorted.
func missing(ws, have []string) []string {
	var out []string
	for _, w := range ws {
		if _, ok := slices.BinarySearch(have, w); !ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// conflicting reports whether two claims of different pages give
// different values for the same subject.
func (cs *curSpace) conflicting(a, b claimRef, weight func(string) float64) (conflict, bool) {
	if a.page == b.page || a.c.Kind != b.c.Kind || a.c.Unit != b.c.Unit || sameValue(a.c, b.c) || withinBounds(a.c, b.c) || qualifiedApart(a.c, b.c) {
		return conflict{}, false
	}
	if a.page.family != "" && a.page.family == b.page.family {
		return conflict{}, false // yearly reports and meeting notes are meant to differ
	}
	if path.Base(a.page.path) == path.Base(b.page.path) {
		return conflict{}, false // each folder's README.md is about its own folder
	}
	// The other page stating the same value too means the two agree on it.
	sim := claimSimilarity(a.c, b.c, weight)
	if b.page.states(a, sim, weight) || a.page.states(b, sim, weight) {
		return conflict{}, false
	}
	if namesApart(a, b) {
		return conflict{}, false
	}
	if a.page.path > b.page.path {
		a, b = b, a
	}
	shared := len(intersect(a.c.Frame, b.c.Frame))
	if strings.HasPrefix(a.c.Value, "--") {
		// A date of every year ("by March 1") is a rule's, which its page
		// may name for it.
		shared += len(intersect(a.c.Frame, b.c.Context)) + len(intersect(a.c.Context, b.c.Frame))
	}
	if (a.c.Kind == valDate || a.c.Kind == valVersion) && shared < 3 {
		// Dates and versions label events ("the Go 1.6 release notes",
		// "published June 2010"): two words in common do not make them
		// one subject.
		return conflict{}, false
	}
	return conflict{a: a, b: b, sim: sim}, true
}

// states reports whether the page has a claim of c's kind and unit with
// c's value on a subject as like c's as sim (the claim that disagrees
// with c) and not named apart from it: the page's closest claim decides.
func (p *curPage) states(c claimRef, sim float64, weight func(string) float64) bool {
	for i := range p.f.Claims {
		o := &p.f.Claims[i]
		if o.Kind == c.c.Kind && o.Unit == c.c.Unit && sameValue(o, c.c) && claimSimilarity(o, c.c, weight) >= max(sim, ContradictionSimilarity) &&
			!namesApart(claimRef{p, o}, c) {
			return true
		}
	}
	return false
}

func showValue(c *claim) string {
	switch c.Kind {
	case valCount:
		return c.Value + " " + c.Unit
	case valVersion:
		return strings.TrimSpace(c.Unit + " " + c.Value)
	case valDuration:
		return showMinutes(c.Value)
	case valInterval:
		return "every " + strings.TrimSuffix(c.Value, "d") + " days"
	}
	return c.Value
}

// intersect returns the words two sorted lists share.
func intersect(a, b []string) []string {
	var out []string
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}
