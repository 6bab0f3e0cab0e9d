package ingest

import (
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

// bodyUses is the count of a word's uses in a body past which its weight
// no longer grows.
const bodyUses = bodyWeight * bodyRepeat

// subjectTerm is one word that speaks for a document's subject: the word
// (its stem, by number in the corpus's lexicon), where it is seen, and how
// often the body uses it (at most bodyUses).
type subjectTerm struct {
	word           int32
	uses           uint8
	title, heading bool
}

// weight is how strongly the term speaks for the document's subject. It
// adds in the same order as the weights are found (title, headings, body),
// so that equal terms weigh exactly the same.
func (t subjectTerm) weight() float64 {
	w := 0.0
	if t.title {
		w += titleWeight
	}
	if t.heading {
		w += headingWeight
	}
	if t.uses > 0 {
		w += min(bodyWeight, float64(t.uses)/bodyRepeat)
	}
	return w
}

// subjectTerms is what one document says about its subject: the words of
// its title and headings, in order of first use (terms[:named]), then the
// body's words heavy enough to make it a member of a topic. It keeps only
// the words subjectTopics reads, by number: a corpus's documents are held
// together.
type subjectTerms struct {
	terms []subjectTerm
	named int
}

// subjectTermsOf returns what a document says about its subject (names:
// its title and aliases) and records in lx the forms its title and heading
// words took (each word once per title and once per headings), which name
// the topics. It is safe to call on several goroutines.
func subjectTermsOf(lx *lexicon, names string, headings []string, body []byte) subjectTerms {
	type term struct {
		stem           string
		uses           int
		title, heading bool
	}
	var ts []term
	at := map[string]int{}
	var forms []subjectWord
	add := func(s string, title bool) {
		seen := map[string]bool{}
		for _, sw := range subjectWords(s) {
			if seen[sw.stem] {
				continue
			}
			seen[sw.stem] = true
			forms = append(forms, sw)
			k, ok := at[sw.stem]
			if !ok {
				k = len(ts)
				at[sw.stem] = k
				ts = append(ts, term{stem: sw.stem})
			}
			if title {
				ts[k].title = true
			} else {
				ts[k].heading = true
			}
		}
	}
	add(names, true)
	add(strings.Join(headings, "\n"), false)
	named := len(ts)
	tf := map[string]int{}
	for _, sw := range subjectWords(string(body)) {
		tf[sw.stem]++
	}
	for w, n := range tf {
		if k, ok := at[w]; ok {
			ts[k].uses = n
		} else if n >= bodyUses {
			ts = append(ts, term{stem: w, uses: n})
		}
	}
	st := subjectTerms{terms: make([]subjectTerm, len(ts)), named: named}
	lx.mu.Lock()
	defer lx.mu.Unlock()
	for i, t := range ts {
		st.terms[i] = subjectTerm{word: lx.id(t.stem), uses: uint8(min(t.uses, bodyUses)), title: t.title, heading: t.heading}
	}
	for _, f := range forms {
		lx.forms[formKey{lx.id(f.stem), lx.id(f.surface)}]++
	}
	return st
}

// subjectTopics names topics after what the documents are about, for those
// that have none: a word of their titles and headings that several of them
// share, else each document's own strongest title or heading word. A word
// that would gather most of a corpus of four or more is too broad to tell
// its pages apart. Documents whose titles and headings hold no usable word
// are left without a topic. It reads each document's text from its body.
func subjectTopics(docs []*corpusDoc) {
	lx := newLexicon()
	terms := make([]subjectTerms, len(docs))
	parallel(len(docs), func(i int) {
		d := docs[i]
		terms[i] = subjectTermsOf(lx, d.names(), headingsOf(d, d.body), d.body)
	})
	for i, t := range pickSubjects(lx, terms) {
		if t != "" {
			docs[i].topics = []string{t}
		}
	}
}

// headingsOf returns the texts of d's headings, read from body when d does
// not know them.
func headingsOf(d *corpusDoc, body []byte) []string {
	if d.headings != nil {
		return d.headings
	}
	var hs []string
	for _, h := range content.Outline(body).Headings {
		hs = append(hs, h.Text)
	}
	return hs
}
