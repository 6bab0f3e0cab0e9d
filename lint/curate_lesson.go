package lint

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
)

var (
	lessonHeadingRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(lessons?|learn(ed|t|ings)|takeaways?)\b`) })
	lessonLineRe    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(lessons?(?: learn(?:ed|t))?|takeaway|learn(?:ed|t))\s*:`)
	})
)

// lessonHeading reports whether a heading opens a section of lessons.
func lessonHeading(h string) bool { return lessonHeadingRe().MatchString(h) }

// lessonLine reports whether a sentence states a lesson by itself.
func lessonLine(s string) bool { return lessonLineRe().MatchString(s) }

// lessonSimilarity is how alike two lessons' content words must be to be
// the same lesson learned twice.
const lessonSimilarity = 0.5

// unpromotedLessons reports a lesson that retrospectives or filed consults
// state again and again (on two pages or more) while no page of its own
// (a title or heading naming it) holds it.
func (cs *curSpace) unpromotedLessons(emit func(Finding)) {
	type lesson struct {
		p     *curPage
		s     sentence
		frame []string
	}
	var ls []lesson
	for _, p := range cs.pages {
		if !p.claimsCount() || !lessonSource(p) {
			continue
		}
		for _, s := range p.f.Lessons {
			if fr := frame(s.Text); len(fr) >= 3 {
				ls = append(ls, lesson{p, s, fr})
			}
		}
	}
	var names [][]string
	for _, p := range cs.pages {
		if !p.claimsCount() || lessonSource(p) {
			continue
		}
		for _, n := range append([]string{p.f.Title}, p.f.Headings...) {
			if fr := frame(n); len(fr) >= 2 {
				names = append(names, fr)
			}
		}
	}
	done := make([]bool, len(ls))
	for i := range ls {
		if done[i] {
			continue
		}
		group := []int{i}
		pages := map[string]bool{ls[i].p.path: true}
		for j := i + 1; j < len(ls); j++ {
			if !done[j] && jaccard(ls[i].frame, ls[j].frame) >= lessonSimilarity {
				group = append(group, j)
				pages[ls[j].p.path] = true
			}
		}
		if len(pages) < 2 {
			continue
		}
		for _, g := range group {
			done[g] = true
		}
		if named(ls[i].frame, names) {
			continue
		}
		var ev []Evidence
		var where []string
		for _, g := range group {
			l := ls[g]
			ev = append(ev, Evidence{Path: l.p.path, Line: l.s.Line, Revision: l.p.blob, Text: l.s.Text})
			where = append(where, fmt.Sprintf("%s:%d", l.p.path, l.s.Line))
		}
		emit(Finding{Check: CheckLesson, Path: ls[i].p.path, Line: ls[i].s.Line, Target: strings.Join(ls[i].frame, " "),
			Message:  fmt.Sprintf("lesson stated %d times (%s) but no page holds it: %q", len(group), strings.Join(where, ", "), ls[i].s.Text),
			Evidence: ev})
	}
}

// lessonSource reports whether a page is a retrospective or a filed
// consult, whose lessons should end up in pages of their own.
func lessonSource(p *curPage) bool {
	switch p.f.Kind {
	case content.KindRetrospective, content.KindSynthesis:
		return true
	}
	return strings.HasPrefix(p.path, "retros/") || strings.HasPrefix(p.path, "synthesis/")
}

// named reports whether some page name's words all appear in the lesson.
func named(lesson []string, names [][]string) bool {
	for _, n := range names {
		if len(intersect(n, lesson)) == len(n) {
			return true
		}
	}
	return false
}

func jaccard(a, b []string) float64 {
	s := len(intersect(a, b))
	u := len(a) + len(b) - s
	if u == 0 {
		return 0
	}
	return float64(s) / float64(u)
}
