package lint

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Kinds of value that people write in many units: each is normalised to
// one unit before two claims are compared, so that "every 3 weeks" and
// "once a month", or "90 minutes" and "two hours", are told apart and
// "48h" and "2 days" are not.
const (
	valDuration = 'l' // a length of time, in minutes: 3 months, 90 minutes
	valInterval = 'f' // how often something happens, as days between two: weekly, every 3 weeks
)

const numberWord = `\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an`

var (
	// periodWordRe finds the sentences that may state a frequency without a
	// digit or a number's name ("biweekly", "every week", "once a month").
	periodWordRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:daily|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|yearly|annually|every|each|once|twice|per)\b`)
	})
	// intervalRe is a frequency: "every 3 weeks", "every other week",
	// "once a month", "twice a year", "4 times a year", "weekly".
	intervalRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:every|each)\s+(other\s+|(?:` + numberWord + `)\s+)?(day|week|fortnight|month|quarter|year)s?\b` +
			`|\b(once|twice|(?:` + numberWord + `)\s+times)\s+(?:a|an|per|each|every)\s+(day|week|fortnight|month|quarter|year)\b` +
			`|\b(daily|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|yearly|annually)\b`)
	})
	// rateRe is a count in a period: "one release candidate per week",
	// "two quiet weeks a year".
	rateRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(` + numberWord + `)\s+((?:[a-z]+\s+){0,3}?)(?:per|a|an|each|every)\s+(day|week|fortnight|month|quarter|year)\b`)
	})
	// durationRe is a length of time: "3 months", "a 3-month period",
	// "90 minutes", "48h", "two hours".
	durationRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:\s*|-)(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|wks?|months?|years?|yrs?)\b`)
	})
)

// minutesIn is the length of a unit of time in minutes (a month 30 days,
// a year 365).
func minutesIn(unit string) float64 {
	u := strings.ToLower(unit)
	switch {
	case strings.HasPrefix(u, "s"):
		return 1.0 / 60
	case strings.HasPrefix(u, "mi"):
		return 1
	case strings.HasPrefix(u, "h"):
		return 60
	case strings.HasPrefix(u, "d"):
		return 24 * 60
	case strings.HasPrefix(u, "w"):
		return 7 * 24 * 60
	case strings.HasPrefix(u, "f"):
		return 14 * 24 * 60
	case strings.HasPrefix(u, "mo"):
		return 30 * 24 * 60
	case strings.HasPrefix(u, "q"):
		return 91 * 24 * 60
	case strings.HasPrefix(u, "y"), strings.HasPrefix(u, "a"):
		return 365 * 24 * 60
	}
	return 0
}

// amount reads a written number: digits, a number's name, or "a"/"an".
func amount(w string) (float64, bool) {
	w = strings.ToLower(w)
	if w == "a" || w == "an" {
		return 1, true
	}
	if n, ok := numberWords[w]; ok {
		w = n
	}
	f, err := strconv.ParseFloat(w, 64)
	return f, err == nil
}

func fmtAmount(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// periods finds frequencies, then counts in a period, then durations, in
// that order: the "3 weeks" of "every 3 weeks" is a frequency's.
func (f *valueFinder) periods() {
	s := f.s
	for _, m := range intervalRe().FindAllStringSubmatchIndex(s, -1) {
		g := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return strings.TrimSpace(strings.ToLower(s[m[2*i]:m[2*i+1]]))
		}
		var days float64
		switch {
		case g(2) != "": // every [N|other] unit
			n := 1.0
			if g(1) == "other" {
				n = 2
			} else if g(1) != "" {
				n, _ = amount(g(1))
			}
			days = n * minutesIn(g(2)) / (24 * 60)
		case g(4) != "": // once|twice|N times a unit
			n := 1.0
			switch w := g(3); {
			case w == "twice":
				n = 2
			case strings.HasSuffix(w, "times"):
				n, _ = amount(strings.TrimSpace(strings.TrimSuffix(w, "times")))
			}
			if n == 0 {
				continue
			}
			days = minutesIn(g(4)) / (24 * 60) / n
		default:
			w := strings.ReplaceAll(g(5), "-", "")
			switch w {
			case "biweekly", "fortnightly":
				days = 14
			default:
				days = minutesIn(strings.TrimSuffix(strings.TrimSuffix(w, "ly"), "i")) / (24 * 60)
			}
		}
		if days > 0 {
			f.add(value{Kind: valInterval, Norm: fmtAmount(days) + "d", start: m[0], end: m[1]})
		}
	}
	for _, m := range rateRe().FindAllStringSubmatchIndex(s, -1) {
		n, _ := amount(s[m[2]:m[3]])
		counted := strings.ToLower(s[m[4]:m[5]])
		if n == 0 || f.taken(m[0], m[1]) || (m[0] > 0 && strings.ContainsRune("-–", rune(s[m[0]-1]))) ||
			strings.Contains(counted, "time") || strings.Contains(counted, "hour") || strings.Contains(counted, "minute") {
			continue // "4 times a year" is a frequency's; "5-10 hours a week" is an effort, a duration
		}
		f.add(value{Kind: valInterval, Norm: fmtAmount(minutesIn(s[m[6]:m[7]])/(24*60)/n) + "d", start: m[0], end: m[1], keep: counted})
	}
	for _, m := range durationRe().FindAllStringSubmatchIndex(s, -1) {
		per := minutesIn(s[m[4]:m[5]])
		var parts []string
		for _, x := range strings.FieldsFunc(s[m[2]:m[3]], func(r rune) bool { return r == '-' || r == '–' || r == ' ' }) {
			n, ok := amount(x)
			if !ok {
				parts = nil
				break
			}
			parts = append(parts, fmtAmount(n*per))
		}
		if len(parts) > 0 && per > 0 {
			f.add(value{Kind: valDuration, Norm: strings.Join(parts, "-") + "m", start: m[0], end: m[1]})
		}
	}
}

// ordinalNumber writes an ordinal as its number: "third" is 3.
func ordinalNumber(w string) string {
	switch w {
	case "first", "1st":
		return "1"
	case "second", "2nd":
		return "2"
	case "third", "3rd":
		return "3"
	case "fourth", "4th":
		return "4"
	case "fifth", "5th":
		return "5"
	}
	return w
}

// sameValue reports whether two claims of one kind state the same value:
// times of day in different zones are the same when some offset of each
// zone (summer or winter) makes them one instant, a time without a zone
// is the same as one with its clock, and a weekday without its ordinal
// ("Wednesdays") is the same as one with ("the first Wednesday").
func sameValue(a, b *claim) bool {
	if a.Value == b.Value {
		return true
	}
	switch a.Kind {
	case valTime:
		return sameTime(a.Value, b.Value)
	case valWeekday:
		// "wed" or "1 wed": the day is the last word, its ordinal before.
		da, db := a.Value[strings.LastIndexByte(a.Value, ' ')+1:], b.Value[strings.LastIndexByte(b.Value, ' ')+1:]
		return da == db && (!strings.Contains(a.Value, " ") || !strings.Contains(b.Value, " "))
	}
	return false
}

// sameTime compares two normalised times of day ("09:00 pt", "17:00 utc").
func sameTime(a, b string) bool {
	ca, za, _ := strings.Cut(a, " ")
	cb, zb, _ := strings.Cut(b, " ")
	oa, ob := zoneOffsets(za), zoneOffsets(zb)
	if oa == nil || ob == nil {
		return ca == cb
	}
	ma, mb := clockMinutes(ca), clockMinutes(cb)
	for _, x := range oa {
		for _, y := range ob {
			if (ma-x-(mb-y))%(24*60) == 0 {
				return true
			}
		}
	}
	return false
}

func clockMinutes(c string) int {
	h, m, _ := strings.Cut(c, ":")
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	return hh*60 + mm
}

// zoneMinutes are the offsets from UTC, in minutes, of the zones in
// zoneNames: winter and summer for a zone named without its season.
var zoneMinutes = map[string][]int{"utc": {0}, "gmt": {0}, "pt": {-480, -420}, "pst": {-480}, "pdt": {-420},
	"et": {-300, -240}, "est": {-300}, "edt": {-240}, "ct": {-360, -300}, "cst": {-360}, "cdt": {-300},
	"cet": {60}, "cest": {120}, "bst": {60}, "ist": {330}, "jst": {540}, "aest": {600}}

// zoneOffsets are a zone's offsets from UTC in minutes; nil for no zone or
// an unknown one. The slice is shared: callers only read it.
func zoneOffsets(z string) []int { return zoneMinutes[z] }

// showMinutes writes a normalised duration ("120m", "300-600m") in the
// largest unit that divides it.
func showMinutes(v string) string {
	parts := strings.Split(strings.TrimSuffix(v, "m"), "-")
	for _, u := range []struct {
		n    float64
		name string
	}{{7 * 24 * 60, "weeks"}, {24 * 60, "days"}, {60, "hours"}} {
		var out []string
		for _, p := range parts {
			f, _ := strconv.ParseFloat(p, 64)
			if f < u.n || f/u.n != float64(int(f/u.n)) {
				out = nil
				break
			}
			out = append(out, fmtAmount(f/u.n))
		}
		if out != nil {
			return strings.Join(out, "-") + " " + u.name
		}
	}
	return strings.Join(parts, "-") + " minutes"
}
