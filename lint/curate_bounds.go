package lint

import (
	"strconv"
	"strings"
)

// A value written with "at least", "up to" or "or more" is a bound, not
// an amount: "weekly" keeps to "at least once a month", and "at least 3
// months" and "at least 6 months" disagree.
var (
	leastBefore = []string{"at least", "minimum of", "no less than", "no fewer than", "more than", "longer than", "over"}
	mostBefore  = []string{"at most", "up to", "no more than", "not more than", "within", "less than", "fewer than", "maximum of", "under", "no later than"}
	leastAfter  = []string{"or more", "or longer", "or later", "or newer", "and later", "and up", "+"}
	mostAfter   = []string{"or less", "or fewer", "or earlier", "or sooner"}
)

// boundOf reads whether a value of a sentence is a least ('>'), a most
// ('<') or exact (0). A least of how often something happens ("at least
// once a month") is a most of the days between.
func boundOf(s string, v value) byte {
	before := strings.ToLower(s[max(0, v.start-24):v.start])
	// "no more than one every two weeks", "at least once every": the
	// bound is on how many, which the frequency carries.
	before = strings.TrimSuffix(strings.TrimSuffix(before, " "), " one")
	after := strings.ToLower(s[v.end:min(len(s), v.end+12)])
	var b byte
	for _, w := range leastBefore {
		if endsWithWord(before, w) || strings.Contains(before, w+" for ") {
			b = '>'
		}
	}
	for _, w := range mostBefore {
		if endsWithWord(before, w) {
			b = '<'
		}
	}
	for _, w := range leastAfter {
		if strings.HasPrefix(strings.TrimLeft(after, " ),"), w) {
			b = '>'
		}
	}
	for _, w := range mostAfter {
		if strings.HasPrefix(strings.TrimLeft(after, " ),"), w) {
			b = '<'
		}
	}
	if v.Kind == valInterval && b != 0 {
		b = '<' + '>' - b
	}
	return b
}

// withinBounds reports whether two amounts of one kind can both hold:
// an amount inside the other's bound, or two bounds the other way round
// that overlap. Two leasts (or mosts) that differ still disagree.
func withinBounds(a, b *claim) bool {
	if a.Bound == 0 && b.Bound == 0 || a.Kind == valVersion || a.Kind == valDate || a.Kind == valTime || a.Kind == valWeekday {
		return false
	}
	alo, ahi, ok1 := amountRange(a.Value)
	blo, bhi, ok2 := amountRange(b.Value)
	if !ok1 || !ok2 {
		return false
	}
	fits := func(lo, hi float64, bound byte, x float64) bool {
		switch bound {
		case '>':
			return lo >= x
		case '<':
			return hi <= x
		}
		return false
	}
	switch {
	case a.Bound == 0:
		return fits(alo, ahi, b.Bound, blo)
	case b.Bound == 0:
		return fits(blo, bhi, a.Bound, alo)
	case a.Bound != b.Bound:
		lo, hi := alo, bhi
		if a.Bound == '<' {
			lo, hi = blo, ahi
		}
		return lo <= hi
	}
	return false
}

// amountRange reads a normalised amount ("90", "300-600m", "14d").
func amountRange(v string) (lo, hi float64, ok bool) {
	v = strings.TrimRight(v, "md%")
	a, b, isRange := strings.Cut(v, "-")
	lo, err := strconv.ParseFloat(a, 64)
	if err != nil {
		return 0, 0, false
	}
	hi = lo
	if isRange {
		if hi, err = strconv.ParseFloat(b, 64); err != nil {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// qualifiedApart reports whether two claims are qualified by different
// values of one kind ("for Go 1.24: kernel 3.2" / "for Go 1.23: kernel
// 2.6.32", "Wednesdays at 15:00" / "Tuesdays at 17:00"): they speak of
// different cases or events, not of one subject.
func qualifiedApart(a, b *claim) bool {
	qa, qb := qualsOf(a), qualsOf(b)
	for k, va := range qa {
		vb, ok := qb[k]
		if !ok {
			continue
		}
		common := false
		for _, x := range va {
			for _, y := range vb {
				common = common || x == y || (strings.HasPrefix(k, string(valTime)) && sameTime(x, y))
			}
		}
		if !common {
			return true
		}
	}
	return false
}

// qualsOf groups a claim's qualifying values by kind and unit.
func qualsOf(c *claim) map[string][]string {
	var q map[string][]string
	for _, w := range c.Frame {
		k, v, ok := strings.Cut(w, "=")
		if !ok || !strings.Contains(k, ":") {
			continue
		}
		if q == nil {
			q = map[string][]string{}
		}
		q[k] = append(q[k], v)
	}
	return q
}

// endsWithWord reports whether text ends with the words w, the parentheses
// and spaces before a value aside.
func endsWithWord(text, w string) bool {
	text = strings.TrimRight(text, " (")
	return strings.HasSuffix(text, w) && (len(text) == len(w) || text[len(text)-len(w)-1] == ' ')
}
