package content

import (
	"strconv"
	"strings"
	"unicode"
)

// Anchor is the fragment a git host (GitHub, GitLab, Gitea) gives a heading:
// lower case, punctuation dropped, spaces as hyphens. Links to "#anchor" are
// checked against it, so it must match what people see on the host.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchorSet numbers repeated anchors the way the hosts do: x, x-1, x-2.
type anchorSet map[string]int

func newAnchorSet() anchorSet { return anchorSet{} }

func (s anchorSet) add(heading string) string {
	a := Anchor(heading)
	n, seen := s[a]
	s[a] = n + 1
	if !seen {
		return a
	}
	return a + "-" + strconv.Itoa(n)
}
