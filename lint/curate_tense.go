package lint

import (
	"regexp"
	"strings"
	"sync"
)

// What a timed sentence says about its time. A stale claim speaks of the
// present or the future ("currently", "the latest", "will", "until
// <date>" over a present-tense clause); a sentence that tells history in
// the past tense, that illustrates ("Good example: ..."), that names a
// year's thing ("the 2019 survey") or that says since when something
// holds ("as of Go 1.17, the package provides ...") stays true however
// old its anchor is.

var (
	// exampleLabelRe is a sentence introduced as an illustration:
	// "Example:", "Good example:", "Example output:".
	exampleLabelRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:[a-z]+\s+){0,2}examples?(?:\s+[a-z]+){0,2}\s*:`)
	})
	// yearNameRe is a year naming a thing rather than a time: after a
	// determiner and before the noun it qualifies ("the 2018 and 2019
	// surveys", "this 2024 plan").
	yearNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ii]ts|[Tt]heir|[Oo]ur|[Ee]ach|[Ee]very)\s+(?:19|20)\d\d(?:\s*(?:,|/|-|–|and|or)\s*(?:19|20)\d\d)*\s+\pL`)
	})
	// provisionalRe: words that make a statement a snapshot that may not
	// last (a restriction, a negation, a recommendation), where "as of
	// <version>" alone says since when something holds.
	provisionalRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(only|still|yet|not|no longer|recommended|preferred|default|experimental)\b|n't\b`)
	})
	// hypotheticalRe: a modal before the time word ("what we would
	// expect") makes it a supposition, not a prediction.
	hypotheticalRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:would|could|might)\s+(?:not\s+)?$`) })
)

// scopeRe ends the text before a version that a superlative ranges over
// ("the latest minor release for Go 1.21"): the version is the scope of
// "latest", not a claim that it is the latest.
var scopeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:latest|newest|most recent)(?:\s+[\w-]+){0,3}\s+(?:for|of|in|on)\s+$`)
})

// scopedVersion reports whether the version raw, in s, is the scope of
// a superlative before it.
func scopedVersion(s, raw string) bool {
	i := strings.Index(s, raw)
	return i >= 0 && scopeRe().MatchString(s[:i])
}

// inIdentifier reports whether every mention of the version raw in s is
// part of a name written as code ("release-branch.go1.21"): a branch or
// a file, not a release the sentence speaks of.
func inIdentifier(s, raw string) bool {
	found := false
	for i := strings.Index(s, raw); i >= 0; {
		if i == 0 || !strings.ContainsRune(".-_/", rune(s[i-1])) {
			return false
		}
		found = true
		j := strings.Index(s[i+1:], raw)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return found
}

// clauseBreaks end a clause inside a sentence.
const clauseBreaks = ",;:()—–"

// markerClause is the clause of s holding the time word at [start, end),
// without the time word itself. A clause that the time word opens and a
// comma closes ("Until Go 1.17, ...", "Currently, ...") governs the
// clause after it, which is the one whose tense counts.
func markerClause(s string, start, end int) string {
	a := strings.LastIndexAny(s[:start], clauseBreaks) + 1
	b := len(s)
	if i := strings.IndexAny(s[end:], clauseBreaks); i >= 0 {
		b = end + i
	}
	if strings.TrimSpace(s[a:start]) == "" && b < len(s) && s[b] == ',' {
		if i := strings.IndexAny(s[b+1:], clauseBreaks); i >= 0 {
			b = b + 1 + i
		} else {
			b = len(s)
		}
	}
	return s[a:start] + " " + s[end:b]
}

// pastTense reports whether the clause around a time word tells of the
// past: it has a verb in the past tense and none in the present or the
// future. When the clause shows neither, an adverb of the present
// ("currently", "for now") is the present; any other time word takes the
// whole sentence's tense.
func pastTense(sentence, clause, marker string) bool {
	past, present := tenseOf(clause)
	if !past && !present && !presentAdverbRe().MatchString(marker) {
		past, present = tenseOf(sentence)
	}
	return past && !present
}

// presentAdverbRe: time words that put their clause in the present.
var presentAdverbRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(currently|at the moment|at present|presently|right now|for now|for the time being|at the time of writing|these days|nowadays)$`)
})

// tenseOf looks for finite verbs: auxiliaries and copulas of the present
// or the past, and a past form in -ed that no determiner, auxiliary or
// "to" makes an adjective or a participle ("the recommended way", "is
// expected", "to be released") and that is not a compound adjective
// ("Google-owned").
func tenseOf(s string) (past, present bool) {
	prev := ""
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ".,;:!?()[]\"'`*_“”")
		switch {
		case presentVerb(w):
			present = true
		case pastVerb[w]:
			past = true
		case len(w) >= 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !participleBefore[prev] && !strings.ContainsAny(w, "0123456789./-"):
			past = true
		}
		prev = w
	}
	return past, present
}

func presentVerb(w string) bool {
	switch w {
	case "is", "are", "am", "has", "have", "will", "can", "cannot", "does", "do", "must", "should", "shall", "may", "need", "needs":
		return true
	}
	for _, suf := range []string{"n't", "'s", "'re", "'ve", "'ll", "’s", "’re"} {
		if strings.HasSuffix(w, suf) && !strings.HasPrefix(w, "wasn") && !strings.HasPrefix(w, "weren") && !strings.HasPrefix(w, "didn") && !strings.HasPrefix(w, "hadn") && !strings.HasPrefix(w, "couldn") && !strings.HasPrefix(w, "wouldn") {
			return true
		}
	}
	return false
}

var pastVerb = map[string]bool{"was": true, "were": true, "had": true, "did": true, "wasn't": true, "weren't": true, "didn't": true, "hadn't": true}

// participleBefore are the words after which an -ed form is not a past
// tense of its own: determiners (an adjective follows), auxiliaries (a
// participle follows), "to", and the conjunctions of a participle's
// clause ("as needed", "once merged").
var participleBefore = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "its": true, "their": true, "our": true, "your": true, "his": true, "her": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "being": true, "am": true,
	"has": true, "have": true, "had": true, "get": true, "gets": true, "got": true, "to": true, "not": true,
	"as": true, "if": true, "when": true, "unless": true, "once": true, // "as needed", "once merged"
}

// unquoted blanks what a sentence quotes: quoted words are someone
// else's (a talk's title, a quotation) and do not date the sentence that
// cites them; a quotation left open runs to the sentence's end.
func unquoted(s string) string {
	s = quotedRe().ReplaceAllString(s, " ")
	if i := strings.IndexAny(s, "\"“"); i >= 0 {
		s = s[:i]
	}
	return s
}
