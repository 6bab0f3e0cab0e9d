package lint

import (
	"path"
	"slices"
	"strings"

	"github.com/ptwiki/pt/content"
)

// sameTemplate reports whether two similar pages are copies of one
// template for different subjects, which are meant to look alike and are
// not merge candidates: the same file name in different folders (each
// group's README.md), or pages that are each about a subject of their
// own (the SLO page of DNS latency and that of network latency, two
// mentoring programs' pages), which shows as three or more headings in
// common under different titles, or as a word of each page's title
// that its own text uses at least twice and the other's at most a third
// as often. Test fixtures are variations of one another on purpose. A
// reworded copy of one page keeps the subject, so at most one
// side has such a word.
func sameTemplate(a, b *curPage) bool {
	if path.Base(a.path) == path.Base(b.path) && path.Dir(a.path) != path.Dir(b.path) {
		return true
	}
	if fixturePath(a.path) && fixturePath(b.path) {
		return true
	}
	return ownSubject(a, b) && ownSubject(b, a)
}

// fixturePath reports whether a page is a program's test input, kept in
// a testdata or fixtures folder: fixtures are variations of one another
// on purpose.
func fixturePath(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "testdata", "fixtures":
			return true
		}
	}
	return false
}

// ownSubject reports whether a word of p's title is p's subject and not
// other's: p uses it at least twice, other at most a third as often.
func ownSubject(p, other *curPage) bool {
	title := p.f.Title
	if title == "" {
		title = content.TitleFromPath(p.path)
	}
	for _, w := range words(title) {
		w = singular(w)
		if stopWords[w] {
			continue
		}
		n, m := bagCount(p.f.Bag, w), bagCount(other.f.Bag, w)
		if n >= 2 && 3*m <= n {
			return true
		}
	}
	return false
}

// bagCount is how often a page uses a word (its bag is sorted by word).
func bagCount(bag []wordCount, w string) int {
	if i, ok := slices.BinarySearchFunc(bag, w, func(e wordCount, w string) int { return strings.Compare(e.W, w) }); ok {
		return bag[i].N
	}
	return 0
}
