package content

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrUnsafePath is wrapped by every path refusal, so callers can tell a bad
// path from other failures.
var ErrUnsafePath = errors.New("unsafe page path")

// CleanPath checks a page path given by a caller and returns it in canonical
// form: slash-separated, relative to the space root, ending in .md. It
// refuses absolute paths, "..", NUL and control characters, invisible
// format characters (bidi overrides, zero-width ones), backslashes, empty
// segments, hidden segments (".git", ".pt") and anything else that could
// escape the space or is not a Markdown page.
func CleanPath(p string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s", ErrUnsafePath, p, why)
	}
	switch {
	case p == "":
		return bad("empty")
	case !utf8.ValidString(p):
		return bad("invalid UTF-8")
	case strings.ContainsAny(p, "\x00"):
		return bad("contains NUL")
	case strings.ContainsRune(p, '\\'):
		return bad("contains a backslash")
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return bad("absolute")
	}
	for _, r := range p {
		switch {
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return bad("contains a control character")
		case unicode.Is(unicode.Cf, r):
			// Bidi overrides, zero-width characters and the like make a
			// path read as another; Slug drops them from titles.
			return bad(fmt.Sprintf("contains the invisible format character %U", r))
		}
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "..":
			return bad("climbs out of the space")
		case seg == "" || seg == ".":
			return bad("empty path segment")
		case strings.HasPrefix(seg, "."):
			return bad("hidden path segment")
		}
	}
	c := path.Clean(p)
	if !strings.HasSuffix(strings.ToLower(c), ".md") || len(c) <= 3 {
		return bad("not a .md page")
	}
	if len(c) > 1024 {
		return bad("longer than 1024 bytes")
	}
	return c, nil
}

// CaseCollision returns the first path of existing that differs from p only
// in case. Two such pages cannot live side by side on case-insensitive file
// systems (macOS, Windows checkouts of the same repository).
func CaseCollision(p string, existing func(yield func(string) bool)) (string, bool) {
	lp := strings.ToLower(p)
	var hit string
	existing(func(e string) bool {
		if e != p && strings.ToLower(e) == lp {
			hit = e
			return false
		}
		return true
	})
	return hit, hit != ""
}

// Slug turns a title into a path segment: lower case letters and digits
// joined by hyphens, at most 80 bytes, never empty.
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		ok := (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || (r > 127 && (isLetterOrDigit(r)))
		if ok {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
		if b.Len() >= 80 {
			break
		}
	}
	if b.Len() == 0 {
		return "page"
	}
	return b.String()
}

// topicSymbols spells the symbols that tell programming languages and
// similar names apart ("C", "C++", "C#", "F#"), which Slug would drop.
var topicSymbols = strings.NewReplacer("+", " plus ", "#", " sharp ")

// TopicSlug names a topic's spoke: Slug of the topic, with "+" and "#"
// spelled out, so that "C++", "C#" and "C" are three topics, not one.
func TopicSlug(topic string) string { return Slug(topicSymbols.Replace(topic)) }

// IsTopic reports whether a topic has a name a spoke can carry: some
// letter or digit once symbols are spelled out ("page" is a topic; "!!!"
// is not).
func IsTopic(topic string) bool {
	for _, r := range strings.ToLower(topicSymbols.Replace(topic)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || (r > 127 && isLetterOrDigit(r)) {
			return true
		}
	}
	return false
}

// TitleFromPath makes a readable title for a page that has none, from its
// file name: "docs/release-notes.md" becomes "Release notes", and
// "GoForCPPProgrammers.md" becomes "Go For CPP Programmers".
func TitleFromPath(p string) string {
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if strings.EqualFold(base, "readme") || strings.EqualFold(base, "index") {
		if d := path.Base(path.Dir(p)); d != "." && d != "/" {
			base = d
		}
	}
	base = strings.NewReplacer("-", " ", "_", " ").Replace(base)
	var b strings.Builder
	rs := []rune(base)
	for i, r := range rs {
		if i > 0 && isUpper(r) && rs[i-1] != ' ' && (!isUpper(rs[i-1]) || (i+1 < len(rs) && isLower(rs[i+1]))) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	t := strings.TrimSpace(b.String())
	if t == "" {
		return p
	}
	r, n := utf8.DecodeRuneInString(t)
	return strings.ToUpper(string(r)) + t[n:]
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }
func isLower(r rune) bool { return r >= 'a' && r <= 'z' }

func isLetterOrDigit(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
