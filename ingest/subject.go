package ingest

import (
	"sort"
	"strings"
	"unicode"

	"github.com/ptwiki/pt/content"
)

// genreWords name what kind of document a source is, not what it is about:
// a topic named "weekly" or "postmortem" gathers unrelated pages, so none of
// these becomes a topic derived from a subject.
var genreWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`adr rfc decision decisions postmortem postmortems mortem incident
		runbook runbooks playbook howto guide tutorial meeting meetings notes note minutes sync weekly
		daily monthly standup retro retrospective chat thread slack discussion summary update updates status
		report doc docs document draft proposal agenda kickoff readme index overview introduction intro misc
		other todo log faq conventions convention policy new instead record memo january february march april
		june july august september october november december monday tuesday wednesday thursday friday
		saturday sunday week today`) {
		m[w] = true
		m[content.Stem(w)] = true
	}
	return m
}()

// subjectWord is one word of a subject: its stem, which is compared, and
// its lower-cased surface form, which names a topic.
type subjectWord struct{ stem, surface string }

// subjectWords splits s into the words a topic may be named by: letters
// only (a word with a digit is a date, a number or an identifier), three
// letters or more, no stopword, no genre word.
func subjectWords(s string) []subjectWord {
	var out []subjectWord
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w := strings.ToLower(f)
		if len([]rune(w)) < 3 || content.Stopword(w) || genreWords[w] || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			continue
		}
		st := content.Stem(w)
		if genreWords[st] {
			continue
		}
		out = append(out, subjectWord{st, w})
	}
	return out
}

// subjectTerms is what one document says about its subject: how strongly
// each word speaks for it (weight), and where each word of its title and
// headings is first seen (at: the title's words first).
type subjectTerms struct {
	weight map[string]float64
	at     map[string]int
}

// A word speaks for a document's subject with titleWeight when it is in
// the title, headingWeight in a heading, and up to bodyWeight as its body
// repeats it (one per bodyRepeat uses); it makes the document a member of
// a topic named by it from memberWeight on.
const (
	titleWeight   = 3
	headingWeight = 1
	bodyWeight    = 2
	bodyRepeat    = 3
	memberWeight  = 2
)

// newSubjectTerms returns what d says about its subject, and the forms its
// title and heading words took (each word once per title and once per
// headings), which name the topics. It keeps only the words subjectTopics
// reads: those of the title and headings, and those heavy enough to make
// d a member of a topic; a corpus's documents are held together.
func newSubjectTerms(d *corpusDoc) (subjectTerms, []subjectWord) {
	st := subjectTerms{weight: map[string]float64{}, at: map[string]int{}}
	var forms []subjectWord
	add := func(s string, w float64) {
		seen := map[string]bool{}
		for _, sw := range subjectWords(s) {
			if seen[sw.stem] {
				continue
			}
			seen[sw.stem] = true
			// Cloned: the words are slices of the text, which the terms
			// would otherwise keep whole.
			sw = subjectWord{strings.Clone(sw.stem), strings.Clone(sw.surface)}
			st.weight[sw.stem] += w
			forms = append(forms, sw)
			if _, ok := st.at[sw.stem]; !ok {
				st.at[sw.stem] = len(st.at)
			}
		}
	}
	add(d.names(), titleWeight)
	headings := d.headings
	if headings == nil {
		for _, h := range content.Analyze(d.body).Headings {
			headings = append(headings, h.Text)
		}
	}
	add(strings.Join(headings, "\n"), headingWeight)
	tf := map[string]int{}
	for _, sw := range subjectWords(string(d.body)) {
		tf[sw.stem]++
	}
	for w, n := range tf {
		st.weight[w] += min(bodyWeight, float64(n)/bodyRepeat)
	}
	// A new map: one that deletes keeps the buckets of every word.
	kept := make(map[string]float64, len(st.at))
	for w, wt := range st.weight {
		if _, named := st.at[w]; named || wt >= memberWeight {
			kept[strings.Clone(w)] = wt
		}
	}
	st.weight = kept
	return st, forms
}

// subjectTopics names topics after what the documents are about, for those
// that have none: a word of their titles and headings that several of them
// share, else each document's own strongest title or heading word. A word
// that would gather most of a corpus of four or more is too broad to tell
// its pages apart. Documents whose titles and headings hold no usable word
// are left without a topic.
func subjectTopics(docs []*corpusDoc) {
	terms := make([]subjectTerms, len(docs))
	forms := make([][]subjectWord, len(docs))
	parallel(len(docs), func(i int) { terms[i], forms[i] = newSubjectTerms(docs[i]) })
	surfaces := map[string]map[string]int{}
	for _, fs := range forms {
		for _, sw := range fs {
			if surfaces[sw.stem] == nil {
				surfaces[sw.stem] = map[string]int{}
			}
			surfaces[sw.stem][sw.surface]++
		}
	}
	// Candidate words name a subject: they are in a title or a heading.
	members := map[string][]int{}
	for i, st := range terms {
		for w, wt := range st.weight {
			if wt >= memberWeight && named(st, w) {
				members[w] = append(members[w], i)
			}
		}
	}
	for i, st := range terms {
		for w, wt := range st.weight {
			if wt >= memberWeight && !named(st, w) && len(members[w]) > 0 {
				members[w] = append(members[w], i)
			}
		}
	}
	broad := len(docs) + 1
	if len(docs) >= 4 {
		broad = max(3, len(docs)*3/5+1)
	}
	left := map[int]bool{}
	for i := range docs {
		left[i] = true
	}
	for len(left) > 0 {
		best, bestN, bestW := "", 1, 0.0
		for w, ms := range members {
			if len(ms) >= broad {
				continue
			}
			n, wt := 0, 0.0
			for _, i := range ms {
				if left[i] {
					n++
					wt += terms[i].weight[w]
				}
			}
			if n > bestN || n == bestN && n > 1 && (wt > bestW || wt == bestW && w < best) {
				best, bestN, bestW = w, n, wt
			}
		}
		if best == "" {
			break
		}
		for _, i := range members[best] {
			if left[i] {
				docs[i].topics = []string{surfaceOf(surfaces[best])}
				delete(left, i)
			}
		}
	}
	for i := range left {
		if w := strongest(terms[i], members, broad); w != "" {
			docs[i].topics = []string{surfaceOf(surfaces[w])}
		}
	}
}

// named reports whether w is in the title or a heading of the document.
func named(st subjectTerms, w string) bool {
	_, ok := st.at[w]
	return ok
}

// strongest is a document's own best subject word among those of its
// title and headings that are not too broad: the heaviest, then the
// earliest.
func strongest(st subjectTerms, members map[string][]int, broad int) string {
	var ws []string
	for w := range st.at {
		if len(members[w]) < broad {
			ws = append(ws, w)
		}
	}
	sort.Slice(ws, func(i, j int) bool {
		a, b := ws[i], ws[j]
		if st.weight[a] != st.weight[b] {
			return st.weight[a] > st.weight[b]
		}
		return st.at[a] < st.at[b]
	})
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

// surfaceOf picks the commonest form a word took in titles and headings,
// the shorter on a tie: "payments" and "payment" name one topic.
func surfaceOf(forms map[string]int) string {
	best := ""
	for f, n := range forms {
		if best == "" || n > forms[best] || n == forms[best] && (len(f) < len(best) || len(f) == len(best) && f < best) {
			best = f
		}
	}
	return best
}
