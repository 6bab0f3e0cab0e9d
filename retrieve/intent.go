package retrieve

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// intent is what kind of fact a question asks for, when its form says so:
// the reason for a decision, or a date. A page that records a decision
// discusses it around the decision itself (context, options, consequences),
// and all of that shares the question's words; the section that states the
// decision, or the date, is the one that answers.
type intent int

const (
	askOther    intent = iota
	askDecision        // why did we choose X, why do we use X over Y
	askDate            // when is X, what date, which day
)

var (
	decisionAsk = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bwhy\b.*\b(choose|chose|chosen|pick|picked|select|selected|decide|decided|prefer|preferred|use|using|adopt|adopted|go with|went with|switch|switched|move|moved)\b`)
	})
	dateAsk = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(when\b|what (date|day|time)\b|which (date|day)\b|by when\b|how soon\b)`)
	})
	// decisionHeading is a heading that states a decision or its reason.
	decisionHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(decision|decided|outcome|resolution|rationale|conclusion|chosen|choice|why)\b`)
	})
	// dateText is a date as pages write them: 2026-11-20, 20/11/2026,
	// "November 20", "20 Nov 2026", "Q3 2026", a weekday with a time.
	dateText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d{4}|q[1-4] \d{4}|(mon|tues|wednes|thurs|fri|satur|sun)days? .{0,20}\d{1,2}(:\d{2})? ?(am|pm|utc|pt|et|cet)?)`)
	})
)

// questionIntent reads the intent from the question's form.
func questionIntent(q string) intent {
	switch {
	case dateAsk().MatchString(q):
		return askDate
	case decisionAsk().MatchString(q):
		return askDecision
	}
	return askOther
}

// answers reports whether a section holds the kind of fact the intent asks
// for: a decision heading, or a date in its text.
func (in intent) answers(h index.Hit) bool {
	switch in {
	case askDecision:
		return decisionHeading().MatchString(lastHeading(h.Heading))
	case askDate:
		return dateText().MatchString(h.Body)
	}
	return false
}

// lastHeading is the innermost heading of a heading path ("A > B" → "B").
func lastHeading(path string) string {
	if i := strings.LastIndex(path, " > "); i >= 0 {
		return path[i+len(" > "):]
	}
	return path
}
