package durability

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Calendar dates as people write them: 2026-12-01, December 1, 2026,
// Dec 1, 1 December 2026, the 1st of December. The year may be left out.
const monthName = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	isoDate      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b`) })
	monthDayDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b` + monthName + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(20\d\d)\b)?`)
	})
	dayMonthDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthName + `\b(?:,?\s+(20\d\d)\b)?`)
	})
	// untilWord is what makes a date the end of a claim: "until
	// 2026-12-01", "valid through March 3", "by Friday 5 June".
	untilWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:until|till|through|thru|before|by|expires?|expiring|ends?|ending|valid\s+(?:to|through|until))\b[^.;\n]{0,40}$`)
	})
)

// textDate is a calendar date found in a text; year is 0 when the text
// gave none.
type textDate struct {
	text             string
	start            int // offset in the text
	year, month, day int
}

// findDates lists the calendar dates of text, in order.
func findDates(text string) []textDate {
	var out []textDate
	for _, m := range isoDate().FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[m[2]:m[3]])
		mo, _ := strconv.Atoi(text[m[4]:m[5]])
		d, _ := strconv.Atoi(text[m[6]:m[7]])
		out = append(out, textDate{text[m[0]:m[1]], m[0], y, mo, d})
	}
	add := func(re *regexp.Regexp, monthGroup, dayGroup int) {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			mo := monthNumber(text[m[2*monthGroup]:m[2*monthGroup+1]])
			d, _ := strconv.Atoi(text[m[2*dayGroup]:m[2*dayGroup+1]])
			y := 0
			if m[6] >= 0 {
				y, _ = strconv.Atoi(text[m[6]:m[7]])
			}
			if d >= 1 && d <= 31 && mo > 0 {
				out = append(out, textDate{text[m[0]:m[1]], m[0], y, mo, d})
			}
		}
	}
	add(monthDayDate(), 1, 2)
	add(dayMonthDate(), 2, 1)
	return out
}

func monthNumber(s string) int {
	s = strings.ToLower(s)
	for i, name := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, name) {
			return i + 1
		}
	}
	return 0
}

// presentDate finds a calendar date that a present claim hangs on: any
// date without a year or of now's year or later (a zero now counts every
// date). A date of an earlier year is history.
func presentDate(text string, now time.Time) (string, bool) {
	for _, d := range findDates(text) {
		if d.year == 0 || now.IsZero() || d.year >= now.Year() {
			return d.text, true
		}
	}
	return "", false
}

// Expiry is the date a time-bound answer stops holding, when the
// question or the answer says so ("until 2026-12-01", "valid through
// March 3"): the earliest such date after now. A date without a year is
// its next occurrence after now; a date already past sets nothing.
func Expiry(question, answer string, now time.Time) (time.Time, bool) {
	var best time.Time
	for _, text := range []string{question, answer} {
		for _, d := range findDates(text) {
			if !untilWord().MatchString(text[:d.start]) {
				continue
			}
			t := time.Date(d.year, time.Month(d.month), d.day, 0, 0, 0, 0, time.UTC)
			if d.year == 0 {
				t = time.Date(now.Year(), time.Month(d.month), d.day, 0, 0, 0, 0, time.UTC)
				if !t.After(now) {
					t = t.AddDate(1, 0, 0)
				}
			}
			if t.Day() != d.day || !t.After(now) {
				continue // 31 February, or already past
			}
			if best.IsZero() || t.Before(best) {
				best = t
			}
		}
	}
	return best, !best.IsZero()
}
