package lint

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
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
	Text  string
}

// maxClaimValues: a sentence listing more values than this is a table or
// a schedule, not a claim about one subject.
const maxClaimValues = 2

// claimsOf returns the claims of a sentence, one per value it states.
func claimsOf(s sentence) []claim {
	vals := valuesOf(s.Text)
	if len(vals) == 0 || len(vals) > maxClaimValues {
		return nil
	}
	var out []claim
	for _, v := range vals {
		// The other values of the sentence qualify the subject ("for Go
		// 1.24 and later: kernel 3.2"): they join its frame as words.
		var quals []string
		rest := s.Text[:v.start] + " " + s.Text[v.end:]
		rest = quotedRe().ReplaceAllString(rest, " ") // a cited title is not the subject
		for _, o := range vals {
			if o != v {
				rest = strings.Replace(rest, s.Text[o.start:o.end], " ", 1)
				quals = append(quals, string(o.Kind)+":"+o.Unit+o.Norm)
			}
		}
		fr := frame(rest)
		if len(fr) < 2 {
			continue // too little said about what the value is of
		}
		fr = append(fr, quals...)
		sort.Strings(fr)
		out = append(out, claim{Line: s.Line, Kind: v.Kind, Unit: v.Unit, Value: v.Norm, Frame: slices.Compact(fr), Text: clip(s.Text, 300)})
	}
	return out
}

// frame is the distinct content words of a text, folded and sorted.
func frame(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(s) {
		w = singular(w)
		if stopWords[w] || len(w) < 2 || isNumber(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	sort.Strings(out)
	return out
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
		}
	}
	weight := func(w string) float64 { return math.Log(1 + float64(len(refs))/float64(df[w])) }
	const maxBucket = 400
	buckets := map[string][]int{}
	for i, r := range refs {
		fr := slices.Clone(r.c.Frame)
		sort.SliceStable(fr, func(a, b int) bool { return df[fr[a]] < df[fr[b]] })
		for _, w := range fr[:min(3, len(fr))] {
			key := string(r.c.Kind) + r.c.Unit + "\x00" + w
			buckets[key] = append(buckets[key], i)
		}
	}
	keys := make([]string, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type pair struct{ a, b int }
	seen := map[pair]bool{}
	var similar []pair
	alike := make([]map[string]bool, len(refs)) // pages of other folders with a similar claim
	kin := make([]map[string]bool, len(refs))   // pages of its own folder with a similar claim
	for _, k := range keys {
		b := buckets[k]
		if len(b) > maxBucket {
			continue
		}
		for x := 0; x < len(b); x++ {
			for y := x + 1; y < len(b); y++ {
				i, j := b[x], b[y]
				if i > j {
					i, j = j, i
				}
				if seen[pair{i, j}] || refs[i].page == refs[j].page {
					continue
				}
				seen[pair{i, j}] = true
				if frameSimilarity(refs[i].c.Frame, refs[j].c.Frame, weight) < ContradictionSimilarity {
					continue
				}
				similar = append(similar, pair{i, j})
				at := alike
				if path.Dir(refs[i].page.path) == path.Dir(refs[j].page.path) {
					at = kin
				}
				for _, e := range [][2]int{{i, j}, {j, i}} {
					if at[e[0]] == nil {
						at[e[0]] = map[string]bool{}
					}
					at[e[0]][refs[e[1]].page.path] = true
				}
			}
		}
	}
	slices.SortFunc(similar, func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	reported := map[string]bool{}
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
		cs.comparePair(a, b, reported, weight, emit)
	}
}

// frameSimilarity is the weight of the words two frames share over the
// weight of the smaller frame.
func frameSimilarity(a, b []string, weight func(string) float64) float64 {
	sum := func(ws []string) float64 {
		t := 0.0
		for _, w := range ws {
			t += weight(w)
		}
		return t
	}
	shared := intersect(a, b)
	if len(shared) < 2 {
		return 0
	}
	return sum(shared) / min(sum(a), sum(b))
}

// comparePair emits a contradiction when two claims of different pages
// give different values for the same subject.
func (cs *curSpace) comparePair(a, b claimRef, reported map[string]bool, weight func(string) float64, emit func(Finding)) {
	if a.page == b.page || a.c.Value == b.c.Value || a.c.Kind != b.c.Kind || a.c.Unit != b.c.Unit {
		return
	}
	if a.page.family != "" && a.page.family == b.page.family {
		return // yearly reports and meeting notes are meant to differ
	}
	if path.Base(a.page.path) == path.Base(b.page.path) {
		return // each folder's README.md is about its own folder
	}
	// The other page stating the same value too means the two agree on it.
	if b.page.states(a.c, weight) || a.page.states(b.c, weight) {
		return
	}
	if namesApart(a, b) {
		return
	}
	if a.page.path > b.page.path {
		a, b = b, a
	}
	shared := intersect(a.c.Frame, b.c.Frame)
	if (a.c.Kind == valDate || a.c.Kind == valVersion) && len(shared) < 3 {
		// Dates and versions label events ("the Go 1.6 release notes",
		// "published June 2010"): two words in common do not make them
		// one subject.
		return
	}
	target := b.page.path + "#" + string(a.c.Kind) + a.c.Unit + ":" + strings.Join(shared, " ")
	if reported[a.page.path+"\x00"+b.page.path] {
		return // one finding per pair of pages: the first subject
	}
	reported[a.page.path+"\x00"+b.page.path] = true
	msg := fmt.Sprintf("states %s where %s:%d states %s: %q / %q", showValue(a.c), b.page.path, b.c.Line, showValue(b.c), a.c.Text, b.c.Text)
	emit(Finding{Check: CheckContradiction, Path: a.page.path, Line: a.c.Line, Target: target, Message: msg,
		Evidence: []Evidence{
			{Path: a.page.path, Line: a.c.Line, Revision: a.page.blob, Value: a.c.Value, Text: a.c.Text},
			{Path: b.page.path, Line: b.c.Line, Revision: b.page.blob, Value: b.c.Value, Text: b.c.Text},
		}})
}

// states reports whether the page has a claim of c's kind and unit with
// c's value on a similar subject.
func (p *curPage) states(c *claim, weight func(string) float64) bool {
	for i := range p.f.Claims {
		o := &p.f.Claims[i]
		if o.Kind == c.Kind && o.Unit == c.Unit && o.Value == c.Value && frameSimilarity(o.Frame, c.Frame, weight) >= ContradictionSimilarity {
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
