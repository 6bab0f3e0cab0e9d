package summary

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// pattern is a regular expression with a cheap test, may, that every
// string the expression matches passes: most sentences and headings are
// turned away by it without running the expression, whose backtracker
// clears memory in proportion to the text on every call. may reads ASCII
// case-insensitively; a string that does not fold exactly (foldsExactly)
// always goes to the expression.
type pattern struct {
	re  func() *regexp.Regexp
	may func(s string) bool
}

// guard compiles expr on first use, behind may.
func guard(expr string, may func(s string) bool) pattern {
	return pattern{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) }), may: may}
}

// MatchString reports whether s holds a match of the expression.
func (p pattern) MatchString(s string) bool {
	if !p.may(s) && foldsExactly(s) {
		return false
	}
	return p.re().MatchString(s)
}

// containsAnyFold reports whether s holds one of subs, ignoring ASCII case;
// subs are lower case.
func containsAnyFold(s string, subs ...string) bool {
	for _, sub := range subs {
		if containsFold(s, sub) {
			return true
		}
	}
	return false
}

// hasAnyPrefixFold reports whether s starts with one of prefixes, ignoring
// ASCII case; prefixes are lower case.
func hasAnyPrefixFold(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if hasPrefixFold(s, p) {
			return true
		}
	}
	return false
}

// hasColonSpace reports whether s holds a colon followed by white space
// (\s: space, tab, newline, form feed, carriage return).
func hasColonSpace(s string) bool {
	for {
		i := strings.IndexByte(s, ':')
		if i < 0 || i+1 >= len(s) {
			return false
		}
		if isSpace(s[i+1]) {
			return true
		}
		s = s[i+1:]
	}
}

// isSpace is the regular expressions' \s.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// mayActor is what a sentence needs for actorVerb to match it: a capital
// letter, more letters, then either white space and one of the verbs, or
// "+", "&" or "and" before a second name (the first name may end right
// before "and", with no space).
func mayActor(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) {
		return false
	}
	i := n
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && r != '\'' && r != '-' {
			break
		}
		i += size
	}
	if i == n {
		return false
	}
	if strings.Contains(s[n:i], "and") {
		return true
	}
	rest := s[i:]
	j := 0
	for j < len(rest) && isSpace(rest[j]) {
		j++
	}
	next := rest[j:]
	if strings.HasPrefix(next, "+") || strings.HasPrefix(next, "&") || strings.HasPrefix(next, "and") {
		return true
	}
	if j == 0 {
		return false
	}
	for _, v := range actorVerbs() {
		if strings.HasPrefix(next, v) {
			return true
		}
	}
	return false
}
