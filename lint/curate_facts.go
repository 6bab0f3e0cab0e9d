package lint

import (
	"bytes"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
)

// factsVersion changes whenever what is extracted from a page changes, so
// that a cache written by another pt is not trusted.
const factsVersion = 8

// pageFacts is what curation needs of one page, extracted once per blob:
// an unchanged page is never read again (the cache keeps these by blob).
type pageFacts struct {
	Title    string
	Kind     string
	Status   string
	Expires  string
	Unread   bool     // binary, not UTF-8, oversized or bad frontmatter
	Headings []string // heading texts
	Claims   []claim
	Timed    []timedClaim
	Shingles []uint64    // sampled hashes of 5-word runs, sorted, distinct
	Bag      []wordCount // content words and how often the page uses them, sorted by word
	Phrases  []string    // distinct lower-case runs of two or three content words
	Lessons  []sentence
	Versions []string // "product version" of every version the page names
	Words    int
}

// extractFacts reads a page's bytes into its facts. It never fails: a page
// it cannot read is Unread and takes part in nothing.
func extractFacts(p string, data []byte) *pageFacts {
	f := &pageFacts{}
	if !content.Readable(data) {
		f.Unread = true
		return f
	}
	pg, err := content.Parse(p, data)
	if err != nil {
		f.Unread = true
		return f
	}
	f.Title, f.Kind, f.Status, f.Expires = pg.Meta.Title, pg.Meta.Kind, pg.Meta.Status, pg.Meta.Expires
	first := 1 + bytes.Count(data[:len(data)-len(pg.Body)], []byte("\n"))
	sents, heads := segment(pg.Body, first)
	for _, h := range heads {
		f.Headings = append(f.Headings, h.Text)
	}
	if f.Title == "" && len(heads) > 0 && heads[0].Line <= first+2 {
		f.Title = heads[0].Text
	}
	inLessons := false
	headIdx := 0
	title := f.Title
	if title == "" {
		title = splitCamel(content.TitleFromPath(p))
	}
	pageWords := frame(strings.NewReplacer("-", " ", "_", " ").Replace(title))
	var context []string
	for _, h := range heads {
		f.Claims = append(f.Claims, claimsOf(h, claimValuesOf(h.Text), pageWords, nil)...)
	}
	for _, s := range sents {
		for headIdx < len(heads) && heads[headIdx].Line < s.Line {
			inLessons = lessonHeading(heads[headIdx].Text)
			context = frame(heads[headIdx].Text)
			if headIdx > 0 {
				context = append(context, frame(heads[headIdx-1].Text)...)
			}
			headIdx++
		}
		f.Words += len(strings.Fields(s.Text))
		vals := claimValuesOf(s.Text)
		f.Claims = append(f.Claims, claimsOf(s, vals, pageWords, context)...)
		for _, v := range vals {
			if v.Kind == valVersion && v.Unit != "" && !v.loose {
				f.Versions = append(f.Versions, v.Unit+" "+v.Norm)
			}
		}
		if t, ok := timedOf(s); ok {
			f.Timed = append(f.Timed, t)
		}
		if inLessons || lessonLine(s.Text) {
			f.Lessons = append(f.Lessons, s)
		}
	}
	f.Bag = bagOf(sents)
	f.Phrases = phrasesOf(sents)
	f.Shingles = shingles(sents)
	return f
}

// datedName is the family a page's path belongs to when it carries digits
// (a year, a date, a version, a number): the path with its folders' digit
// runs folded and its file name cut before the first digit, lower-cased,
// so that yearly reports, meeting notes, per-year election folders and
// versioned specs of one series share it. ok is false for a path with no
// digits.
func datedName(p string) (string, bool) {
	if !strings.ContainsAny(p, "0123456789") {
		return "", false
	}
	dir, base := path.Split(p)
	if i := strings.IndexAny(base, "0123456789"); i >= 0 {
		base = base[:i] + "#"
	}
	var b strings.Builder
	digits := false
	for _, r := range dir {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String() + strings.ToLower(base), true
}

// datedPath reports whether a page's path names a date or a year: the
// page is a record of its time (a meeting's notes, a year's report).
func datedPath(p string) bool {
	for _, w := range strings.FieldsFunc(p, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) {
			return true
		}
		if (len(w) == 6 || len(w) == 8) && (strings.HasPrefix(w, "20") || strings.HasPrefix(w, "19")) {
			return true
		}
	}
	return false
}

// recordPath reports whether a page is a record rather than current
// guidance: named for a date (datedPath) or for a release ("Go-1.6-release-
// party.md"), or kept in an archive folder. Records state what held then:
// they contradict no page.
func recordPath(p string) bool {
	if datedPath(p) || versionedName(path.Base(p)) {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(dir) {
		case "archive", "archived", "attic":
			return true
		}
	}
	return false
}

// versionedName reports whether a file name holds a release number: digits,
// a dot, digits ("Go-1.10-Release-Party.md").
func versionedName(name string) bool {
	name = strings.TrimSuffix(name, path.Ext(name))
	for i := 1; i+1 < len(name); i++ {
		if name[i] == '.' && isDigit(name[i-1]) && isDigit(name[i+1]) {
			return true
		}
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
