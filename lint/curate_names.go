package lint

import (
	"strings"

	"unicode"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
)

// namesApart reports whether two claims name different things: each
// sentence holds a name of two or more capitalized words ("Steering
// Committee", "SIG Network") with a word the other sentence never uses.
// When one sentence names something and the other nothing, the other is
// about its page, and its page's title stands in. Two values of things
// with different names are not one subject.
func namesApart(a, b claimRef) bool {
	if !hasName(a.c.Text) && !hasName(b.c.Text) {
		return false
	}
	return ownName(nameText(a), b.c.Text) && ownName(nameText(b), a.c.Text)
}

// nameText is a claim's sentence, or its page's title when the sentence
// names nothing.
func nameText(r claimRef) string {
	if hasName(r.c.Text) {
		return r.c.Text
	}
	t := r.page.f.Title
	if t == "" {
		t = splitCamel(content.TitleFromPath(r.page.path))
	}
	return ". " + t
}

// hasName reports whether a text holds a run of two or more capitalized
// words.
func hasName(s string) bool {
	return ownName(s, "")
}

// ownName reports whether s names something that other does not. A name
// is a run of capitalized words that no punctuation interrupts (a stop
// word does not start one: "For Go"); weekdays, months, time zones and a
// release's name after its number ("macOS 11 Big Sur") are values, not
// names. A name is other's too when most of its words are in other
// (folded: "Kubernetes Organizations" is in "any Kubernetes
// organization").
func ownName(s, other string) bool {
	in := map[string]bool{}
	for _, w := range words(other) {
		in[stem(singular(w))] = true
	}
	run, absent := 0, 0
	afterNumber := false
	for _, tok := range strings.Fields(s) {
		w := strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		lw := strings.ToLower(w)
		name := capitalized(w) && !strings.ContainsAny(tok, "()[]") && !calendarWord(lw) && !zoneWord(lw) &&
			!(run == 0 && stopWords[lw]) && !afterNumber
		if name {
			if !stopWords[lw] {
				run++
				if !in[stem(singular(lw))] {
					absent++
				}
			}
		} else {
			afterNumber = isNumber(w) && w != "" || (afterNumber && capitalized(w))
		}
		if !name || tok != strings.TrimRight(tok, ".,;:!?") {
			if run >= 2 && 2*absent >= run {
				return true
			}
			run, absent = 0, 0
		}
	}
	return run >= 2 && 2*absent >= run
}

// capitalized reports whether a word starts with a capital letter.
func capitalized(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return len(w) >= 2 && unicode.IsUpper(r)
}

// zoneWord reports whether a word is a time zone's abbreviation.
func zoneWord(w string) bool {
	switch w {
	case "utc", "gmt", "pt", "pst", "pdt", "et", "est", "edt", "ct", "cst", "cdt", "cet", "cest", "bst", "ist", "jst", "aest":
		return true
	}
	return false
}

// calendarWord reports whether a word names a weekday or a month, which
// are values here, not names of subjects.
func calendarWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	if weekdayRe().MatchString(strings.ToUpper(w[:1]) + w[1:]) {
		return true
	}
	for _, f := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		if strings.HasPrefix(f, w) {
			return true
		}
	}
	return false
}
