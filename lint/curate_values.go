package lint

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Kinds of value a claim states. Two claims conflict only on values of
// one kind (and, for counts, one unit).
const (
	valTime    = 't' // a time of day: 14:00 UTC
	valDate    = 'd' // a day: 2024-03-01, March 1, 2024
	valVersion = 'v' // a version: Go 1.21, v1.28
	valCount   = 'n' // a number with its unit: 3 approvers, 30 days
	valWeekday = 'w' // a day of the week: Tuesdays
)

// value is one value found in a sentence: its kind, its normalized form,
// where it is, and its unit (counts) or product (versions).
type value struct {
	Kind       byte
	Norm       string
	Unit       string
	start, end int
	loose      bool   // a product only a capital names: not a release the space tracks
	keep       string // words of the span that say what is counted ("release candidate")
}

var (
	timeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([01]?\d|2[0-3]):([0-5]\d)\s*(am|pm)?(?:\s*\(?(` + zoneNames + `)\b\)?)?|\b(1[0-2]|[1-9])\s*(am|pm)\b(?:\s*\(?(` + zoneNames + `)\b\)?)?`)
	})
	isoRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b`) })
	monthRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?((?:19|20)\d\d)\b|\b(\d{1,2})\s+(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\s+((?:19|20)\d\d)\b`)
	})
	verRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(go|kubernetes|k8s|version|release|v)\s?(\d+\.\d+(?:\.\d+)?)(?:\b|$)|\b(\d+\.\d+\.\d+)\b`)
	})
	countRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[^\w.:/-])(\d+(?:\.\d+)?(?:\s*[-–]\s*\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*(%|[a-z]{2,}\b)`)
	})
	// productRe is a product named with its release: macOS 12, Windows 10.
	productRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(macos|windows|ubuntu|debian|fedora|rhel|android|ios|python|node|java|linux kernel|kernel)\s+(?:version\s+)?(\d+(?:\.\d+)*)\b`)
	})
	ordinalUnitRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(week|day|phase|step|stage|tier|level|round)\s+(\d{1,2})\b`)
	})
	weekdayRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?)\b`) })
	numberWordRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b`)
	})
	// monthDayRe is a month's name and a day without a year: "March 1".
	monthDayRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	})
	// namedVersionRe is a product written with a capital and its release:
	// "QEMU 8.2", "Bazel 7.1".
	namedVersionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([A-Z][A-Za-z]+)\s+v?(\d+\.\d+(?:\.\d+)?)\b`) })
	// releaseNameRe is a release's own name right after its number:
	// "12 Monterey", "11 Big Sur".
	releaseNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(?:[A-Z][a-z]+\b\s?){1,3}`) })
	// weekOrdinalRe is the ordinal before a weekday: "the first Tuesday".
	weekOrdinalRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+$`)
	})
)

var numberWords = map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}

// zoneNames are the time zones a time of day may name.
const zoneNames = `utc|gmt|pst|pdt|pt|est|edt|et|cst|cdt|ct|cest|cet|bst|ist|jst|aest`

// ordinal suffixes are not units: "the 17th" is a day, not 17 "th".
var ordinal = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

var months = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// valuesOf finds the dates, times, versions, weekdays and counts a
// sentence states. A span is claimed by the first kind that matches it: a
// date's digits are not also a count.
func valuesOf(s string) []value {
	return findValues(s, false)
}

// claimValuesOf finds the values a claim may state: valuesOf's, and also
// frequencies and durations in one unit each, dates without a year,
// weekdays with their ordinal ("the first Tuesday") and versions of any
// product named with a capital ("QEMU 8.2").
func claimValuesOf(s string) []value {
	return findValues(s, true)
}

// valueFinder collects a sentence's values, each span taken once.
type valueFinder struct {
	s   string
	out []value
}

func (f *valueFinder) taken(a, b int) bool {
	for _, v := range f.out {
		if a < v.end && b > v.start {
			return true
		}
	}
	return false
}

func (f *valueFinder) add(v value) {
	if !f.taken(v.start, v.end) {
		f.out = append(f.out, v)
	}
}

func findValues(s string, claims bool) []value {
	digits := strings.ContainsAny(s, "0123456789")
	if !digits && !numberWordRe().MatchString(s) && !weekdayRe().MatchString(s) && !(claims && periodWordRe().MatchString(s)) {
		return nil // most sentences stop here
	}
	f := &valueFinder{s: s}
	if digits {
		f.dates(claims)
		for _, m := range timeRe().FindAllStringSubmatchIndex(s, -1) {
			f.add(value{Kind: valTime, Norm: normTime(s, m), start: m[0], end: m[1]})
		}
		f.versions(claims)
		for _, m := range ordinalUnitRe().FindAllStringSubmatchIndex(s, -1) {
			f.add(value{Kind: valCount, Norm: s[m[4]:m[5]], Unit: strings.ToLower(s[m[2]:m[3]]) + " #", start: m[0], end: m[1]})
		}
	}
	if claims {
		f.periods()
	}
	for _, m := range weekdayRe().FindAllStringSubmatchIndex(s, -1) {
		v := value{Kind: valWeekday, Norm: strings.ToLower(s[m[2] : m[2]+3]), start: m[0], end: m[1]}
		if claims {
			if o := weekOrdinalRe().FindStringSubmatchIndex(s[:m[0]]); o != nil {
				v.Norm, v.start = ordinalNumber(strings.ToLower(s[o[2]:o[3]]))+" "+v.Norm, o[2]
			}
		}
		f.out = append(f.out, v)
	}
	f.counts(claims)
	return f.out
}

// dates finds ISO dates, dates with a month's name and a year, and (for
// claims) a month's name with a day and no year ("by March 1"), a date
// that comes round every year.
func (f *valueFinder) dates(claims bool) {
	s := f.s
	for _, m := range isoRe().FindAllStringSubmatchIndex(s, -1) {
		f.add(value{Kind: valDate, Norm: s[m[0]:m[1]], start: m[0], end: m[1]})
	}
	for _, m := range monthRe().FindAllStringSubmatchIndex(s, -1) {
		var mon, day, year string
		if m[2] >= 0 {
			mon, year = s[m[2]:m[3]], s[m[6]:m[7]]
			if m[4] >= 0 {
				day = s[m[4]:m[5]]
			}
		} else {
			day, mon, year = s[m[8]:m[9]], s[m[10]:m[11]], s[m[12]:m[13]]
		}
		n := fmt.Sprintf("%s-%02d", year, months[strings.ToLower(mon[:3])])
		if day != "" {
			d, _ := strconv.Atoi(day)
			n += fmt.Sprintf("-%02d", d)
		}
		f.add(value{Kind: valDate, Norm: n, start: m[0], end: m[1]})
	}
	if !claims {
		return
	}
	for _, m := range monthDayRe().FindAllStringSubmatchIndex(s, -1) {
		d, _ := strconv.Atoi(s[m[4]:m[5]])
		if d < 1 || d > 31 || (m[1] < len(s) && s[m[1]] == ':') {
			continue
		}
		f.add(value{Kind: valDate, Norm: fmt.Sprintf("--%02d-%02d", months[strings.ToLower(s[m[2]:m[2]+3])], d), start: m[0], end: m[1]})
	}
}

// versions finds versions: of Go, Kubernetes or a release ("v1.28"), of a
// known product ("macOS 12"), and (for claims) of any product written
// with a capital ("QEMU 8.2"). A capitalized name right after a release
// number is the release's own name ("macOS 12 Monterey").
func (f *valueFinder) versions(claims bool) {
	s := f.s
	for _, m := range verRe().FindAllStringSubmatchIndex(s, -1) {
		prod, ver := "", ""
		if m[2] >= 0 {
			prod, ver = strings.ToLower(s[m[2]:m[3]]), s[m[4]:m[5]]
			if prod == "k8s" {
				prod = "kubernetes"
			}
			if prod == "version" || prod == "release" || prod == "v" {
				prod = ""
			}
		} else {
			ver = s[m[6]:m[7]]
		}
		f.add(value{Kind: valVersion, Norm: ver, Unit: prod, start: m[0], end: m[1]})
	}
	for _, m := range productRe().FindAllStringSubmatchIndex(s, -1) {
		f.add(value{Kind: valVersion, Norm: s[m[4]:m[5]], Unit: strings.ToLower(s[m[2]:m[3]]), start: m[0], end: m[1]})
	}
	if !claims {
		return
	}
	for _, m := range namedVersionRe().FindAllStringSubmatchIndex(s, -1) {
		if stopWords[strings.ToLower(s[m[2]:m[3]])] {
			continue
		}
		f.add(value{Kind: valVersion, Norm: s[m[4]:m[5]], Unit: strings.ToLower(s[m[2]:m[3]]), start: m[0], end: m[1], loose: true})
	}
	for i, v := range f.out {
		if v.Kind == valVersion {
			if m := releaseNameRe().FindStringIndex(s[v.end:]); m != nil {
				f.out[i].end += m[1]
			}
		}
	}
}

// counts finds numbers with their unit. For claims the unit is the noun
// the number counts, the first plural of the words after it ("two
// release branches", "four single weeks"), not the first word.
func (f *valueFinder) counts(claims bool) {
	s := f.s
	for _, m := range countRe().FindAllStringSubmatchIndex(s, -1) {
		a, b := m[4], m[7]
		if f.taken(a, b) {
			continue
		}
		num := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(s[m[4]:m[5]]), " ", ""), "–", "-")
		if w, ok := numberWords[num]; ok {
			num = w
		}
		word := strings.ToLower(s[m[6]:m[7]])
		if claims {
			if head, end, ok := countedNoun(s, m[6], num); ok {
				word, b = head, end
			}
		}
		unit := singular(word)
		if unit == "percent" {
			unit = "%"
		}
		if stopWords[unit] || ordinal[unit] {
			continue // "3 of", "2 and": no unit
		}
		f.out = append(f.out, value{Kind: valCount, Norm: num, Unit: unit, start: a, end: b})
	}
}

// countedNoun is the noun a number counts, in the run of up to three
// lower-case words after it (stop words and punctuation end the run;
// "most" and "least" do not): the first plural, or for one the last
// word. ok is false when the run is empty.
func countedNoun(s string, at int, num string) (string, int, bool) {
	var run []string
	var ends []int
	i := at
	for len(run) < 3 {
		j := i
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		w := s[i:j]
		if w == "" || (j < len(s) && (s[j] == '-' || s[j] == '\'')) {
			break
		}
		if w == "most" || w == "least" {
			if j >= len(s) || s[j] != ' ' {
				break
			}
			i = j + 1
			continue
		}
		if stopWords[w] {
			break
		}
		run, ends = append(run, w), append(ends, j)
		if j >= len(s) || s[j] != ' ' {
			break
		}
		i = j + 1
	}
	if len(run) == 0 {
		return "", 0, false
	}
	if num == "1" {
		return run[len(run)-1], ends[len(run)-1], true
	}
	for k, w := range run {
		if singular(w) != w {
			return w, ends[k], true
		}
	}
	return run[0], ends[0], true
}

// normTime writes a time of day as 24-hour HH:MM with its zone.
func normTime(s string, m []int) string {
	grp := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return strings.ToLower(s[m[2*i]:m[2*i+1]])
	}
	h, mm, ampm, zone := grp(1), grp(2), grp(3), grp(4)
	if h == "" {
		h, mm, ampm, zone = grp(5), "00", grp(6), grp(7)
	}
	hour, _ := strconv.Atoi(h)
	switch {
	case ampm == "pm" && hour < 12:
		hour += 12
	case ampm == "am" && hour == 12:
		hour = 0
	}
	if zone == "gmt" {
		zone = "utc"
	}
	return strings.TrimSpace(fmt.Sprintf("%02d:%s %s", hour, mm, zone))
}

// singular folds a plain English plural.
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

// stopWords carry no subject: they are left out of a claim's frame.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor of to in on at by for from with without into onto
		over under about as is are was were be been being am it its it's this that these those there here
		we you they he she i me my our your their his her them us do does did done has have had having
		not no yes so if then than when while which who whom whose what where why how all any each
		every some such more most less least many much few other another same own also just only very
		can could may might must shall should will would up down out off again once both either neither
		per via vs etc e.g i.e can't don't won't isn't aren't doesn't use used using uses get gets
		s t re ll ve d m one two three four five six seven eight nine ten new now before after during within
		until since because whether though although once`) {
		m[w] = true
	}
	return m
}()
