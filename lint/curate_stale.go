package lint

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// timedClaim is a sentence whose own words tie it to a time: a word that
// speaks of the present or the future ("currently", "as of", "until",
// "will") and an anchor (a date, a year, a quarter, a version). Whether it
// has gone stale depends on the decision time, so only this is cached.
type timedClaim struct {
	Line    int
	Text    string
	Marker  string // the time word, lower-cased
	Future  bool   // the marker looks ahead ("until", "will"): stale once the anchor passed
	Anchors []anchor
}

// anchor is a point a sentence names: a period ending at End, or a
// product's version.
type anchor struct {
	Raw     string
	End     time.Time // dates: the end of the day, month, quarter or year named
	Product string    // versions
	Version string
}

var (
	presentRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(as of|currently|at the moment|at present|presently|right now|for now|for the time being|at the time of writing|these days|nowadays|latest|newest|most recent|in (?:beta|alpha|preview)|temporarily|temporary)\b`)
	})
	futureRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(will|won't|[Uu]ntil|till|upcoming|scheduled (?:for|to)|planned (?:for|to)|plans? to|(?:is|are) expected|going to|deadline|due (?:on|by|in)|not yet|next release|no later than|begins|starts|opens|closes|ends|reaches|expires|expect(?:s|ed)?)\b`)
	})
	quarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:Q([1-4])|H([12]))\s*(?:of\s+)?((?:19|20)\d\d)\b|\b((?:19|20)\d\d)\s*[-/ ]?\s*(?:Q([1-4])|H([12]))\b`)
	})
	quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"[^"]*"|“[^”]*”|_[^_]+_`) })
	yearRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b((?:19|20)\d\d)\b`) })
	sinceRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(since|from|after|between|starting(?: in| with)?|beginning(?: in| with)?|introduced in|added in)\s*$`)
	})
)

// timedOf returns the sentence as a timed claim when it has both a time
// word and an anchor, and speaks of the present or the future: not an
// illustration, not history told in the past tense (curate_tense.go).
func timedOf(s sentence) (timedClaim, bool) {
	t := timedClaim{Line: s.Line, Text: clip(s.Text, 300)}
	if !strings.ContainsAny(s.Text, "0123456789") || exampleLabelRe().MatchString(s.Text) {
		return t, false // no anchor without a digit
	}
	own := unquoted(s.Text)
	m := futureRe().FindStringIndex(own)
	if m != nil && hypotheticalRe().MatchString(own[:m[0]]) {
		m = nil
	}
	if m != nil {
		t.Future = true
	} else if m = presentRe().FindStringIndex(own); m == nil {
		return t, false
	}
	t.Marker = strings.ToLower(own[m[0]:m[1]])
	if pastTense(own, markerClause(own, m[0], m[1]), t.Marker) {
		return t, false
	}
	// "As of Go 1.17, the package provides ..." says since when it holds;
	// "as of Go 1.5, only ... works" is a snapshot that may not last.
	since := t.Marker == "as of" && !provisionalRe().MatchString(own) && len(presentRe().FindAllString(own, 2)) < 2
	for _, a := range anchorsOf(s.Text) {
		if a.Version != "" && (since || scopedVersion(own, a.Raw) || inIdentifier(own, a.Raw)) {
			continue
		}
		t.Anchors = append(t.Anchors, a)
	}
	return t, len(t.Anchors) > 0
}

// anchorsOf finds the dates, quarters, years and versions of a sentence.
// A period after "since", "from" or "in" starts something that goes on,
// so it dates nothing.
func anchorsOf(s string) []anchor {
	var out []anchor
	var spans [][2]int
	taken := func(a, b int) bool {
		for _, sp := range spans {
			if a < sp[1] && b > sp[0] {
				return true
			}
		}
		return false
	}
	for _, m := range yearNameRe().FindAllStringIndex(s, -1) {
		spans = append(spans, [2]int{m[0], m[1]})
	}
	add := func(a anchor, start, end int) {
		if a.Version == "" && taken(start, end) {
			return // a year naming a thing: "the 2019 survey"
		}
		spans = append(spans, [2]int{start, end})
		if a.Version == "" && sinceRe().MatchString(s[:start]) {
			return
		}
		out = append(out, a)
	}
	for _, v := range valuesOf(s) {
		switch v.Kind {
		case valDate:
			if end, ok := periodEnd(v.Norm); ok {
				add(anchor{Raw: s[v.start:v.end], End: end}, v.start, v.end)
			}
		case valVersion:
			if v.Unit != "" {
				add(anchor{Raw: s[v.start:v.end], Product: v.Unit, Version: v.Norm}, v.start, v.end)
			} else {
				spans = append(spans, [2]int{v.start, v.end})
			}
		}
	}
	for _, m := range quarterRe().FindAllStringSubmatchIndex(s, -1) {
		if taken(m[0], m[1]) {
			continue
		}
		g := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return s[m[2*i]:m[2*i+1]]
		}
		year, q, h := g(3), g(1), g(2)
		if year == "" {
			year, q, h = g(4), g(5), g(6)
		}
		y, _ := strconv.Atoi(year)
		month := 12
		if q != "" {
			n, _ := strconv.Atoi(q)
			month = 3 * n
		} else if h == "1" {
			month = 6
		}
		add(anchor{Raw: s[m[0]:m[1]], End: time.Date(y, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC)}, m[0], m[1])
	}
	for _, m := range yearRe().FindAllStringSubmatchIndex(s, -1) {
		if taken(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		add(anchor{Raw: s[m[0]:m[1]], End: time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)}, m[0], m[1])
	}
	return out
}

// periodEnd is when a normalized date (2024, 2024-03, 2024-03-01) is over.
func periodEnd(n string) (time.Time, bool) {
	if t, err := time.Parse(time.DateOnly, n); err == nil {
		return t.AddDate(0, 0, 1), true
	}
	if t, err := time.Parse("2006-01", n); err == nil {
		return t.AddDate(0, 1, 0), true
	}
	return time.Time{}, false
}

// staleClaims reports the timed claims of active pages that the decision
// time has overtaken: a future anchor that has passed, a present-tense
// claim anchored longer ago than the horizon, or a version older than the
// space's newest by more than the version horizon. Records (pages named
// for a date or a release, or kept in an archive folder) tell of their
// time and are skipped.
func (cs *curSpace) staleClaims(emit func(Finding)) {
	for _, p := range cs.pages {
		if !p.claimsCount() || recordPath(p.path) || p.family != "" {
			continue
		}
		for _, t := range p.f.Timed {
			why := cs.overtaken(t)
			if why == "" {
				continue
			}
			msg := fmt.Sprintf("%q: %s", t.Text, why)
			if p.f.Expires != "" {
				msg += "; the page expires " + p.f.Expires
			}
			emit(Finding{Check: CheckStale, Path: p.path, Line: t.Line, Target: normSentence(t.Text), Message: msg,
				Evidence: []Evidence{{Path: p.path, Line: t.Line, Revision: p.blob, Text: t.Text}}})
		}
	}
}

// overtaken says why a timed claim is stale at the decision time, or "".
func (cs *curSpace) overtaken(t timedClaim) string {
	for _, a := range t.Anchors {
		if a.Version != "" {
			if t.Marker == "will" || t.Marker == "won't" || t.Marker == "going to" {
				// "will use Go 1.23 semantics when ...": a version with
				// "will" describes behaviour, not a prediction.
				continue
			}
			newest := cs.newest[versionKey(a.Product, a.Version)]
			behind := minorsBehind(a.Version, newest)
			if (t.Future && behind > 0) || behind >= cs.opts.VersionHorizon {
				return fmt.Sprintf("%q with %s %s, and the space already speaks of %s %s", t.Marker, a.Product, a.Version, a.Product, newest)
			}
			continue
		}
		if t.Future && a.End.Before(cs.now) {
			return fmt.Sprintf("%q with %s, which has passed (decision time %s)", t.Marker, a.Raw, cs.now.Format(time.DateOnly))
		}
		if !t.Future && a.End.Add(cs.opts.StaleAfter).Before(cs.now) {
			return fmt.Sprintf("%q with %s, more than %s before the decision time %s", t.Marker, a.Raw, showDays(cs.opts.StaleAfter), cs.now.Format(time.DateOnly))
		}
	}
	return ""
}

func showDays(d time.Duration) string {
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

// minorsBehind is how many minor versions v is behind newest (same
// major), or 0 when it is not behind or they cannot be compared.
func minorsBehind(v, newest string) int {
	a, b := versionParts(v), versionParts(newest)
	if a == nil || b == nil || a[0] != b[0] || a[1] >= b[1] {
		return 0
	}
	return b[1] - a[1]
}

func versionParts(v string) []int {
	ps := strings.Split(v, ".")
	if len(ps) < 2 {
		return nil
	}
	out := make([]int, 2)
	for i := range 2 {
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			return nil
		}
		out[i] = n
	}
	return out
}

// versionKey is a product and the major version of v.
func versionKey(product, v string) string {
	major, _, _ := strings.Cut(v, ".")
	return product + " " + major
}

// newerVersion reports whether version a is after b.
func newerVersion(a, b string) bool {
	pa, pb := versionParts(a), versionParts(b)
	if pa == nil {
		return false
	}
	if pb == nil {
		return true
	}
	return pa[0] > pb[0] || (pa[0] == pb[0] && pa[1] > pb[1])
}

// normSentence is a sentence's stable key: its words, lower-cased.
func normSentence(s string) string {
	return strings.Join(words(s), " ")
}
