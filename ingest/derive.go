package ingest

import (
	"path"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/taxonomy"
)

// Bounds of topics derived from a corpus.
const (
	// minFolderPages: a folder holding fewer Markdown files than this (its
	// subfolders included) folds into its parent, so that a lone README or
	// a pair of files does not become a topic of its own.
	minFolderPages = 3
	// maxFolderDepth: deeper folders are named by their first two levels
	// (elections/steering/2024 is elections/steering); the spoke writer
	// splits a large topic into parts, so depth adds no navigation.
	maxFolderDepth = 2
	// minHubLinks: a page linking to at least this many other pages of the
	// corpus is an index page, and the section under which it links a page
	// names that page's topic.
	minHubLinks = 8
)

// corpusDoc is what topic derivation needs to know of one file. It holds
// no text: what derivation reads of a file's text (its words, for the
// vocabulary of topics and for its subject) comes from deriveTopics's
// text function, once, and only for the files that need it.
type corpusDoc struct {
	rel   string // slash path relative to the corpus root
	blob  string // the file's git blob id: the revision provenance pins
	title string
	// aliases are the file name's words when the title is not from it;
	// topics are matched on both.
	aliases []string
	// body is the text, for a caller that has it at hand (an ingest of
	// one source); an import leaves it nil and reads files again.
	body []byte
	// headings are the texts of the body's headings; nil when not known
	// yet (they are then read from body).
	headings []string
	topics   []string
	// links are the corpus files this one links to, with the heading of
	// the section each link sits in ("" before the first heading).
	links []docLink
}

// names is the title and the aliases, the words topics are matched on.
func (d *corpusDoc) names() string {
	return strings.Join(append([]string{d.title}, d.aliases...), " ")
}

type docLink struct {
	to      string
	heading string
}

// deriveTopics gives every document without topics some, in this order:
// (the taxonomy of the space, matched by the caller as each file is read,)
// the document's folder, the section of an index page of the corpus that
// links to it, the vocabulary of the topics found so far, the words of its
// subject (subjectTopics), and last the corpus's own name (root). text
// returns a document's body; it is called once for each document left
// without a topic by its folder and the link graph, on several goroutines,
// and its result is not kept. Headings and links are let go of once read.
func deriveTopics(docs []*corpusDoc, root string, text func(d *corpusDoc) ([]byte, error)) error {
	var rest []*corpusDoc
	for _, d := range docs {
		if len(d.topics) == 0 {
			rest = append(rest, d)
		}
	}
	rest = byFolder(docs, rest)
	rest = byLinkGraph(docs, rest)
	defer func() {
		for _, d := range docs {
			d.headings, d.links = nil, nil
		}
	}()
	if len(rest) == 0 {
		return nil
	}
	derived := taxonomy.New()
	for _, d := range docs {
		for _, t := range d.topics {
			derived.Topic(t).AddVocab(d.names(), 1)
		}
	}
	derived.Finish()
	lx := newLexicon()
	terms := make([]subjectTerms, len(rest))
	unnamed := make([]bool, len(rest))
	errs := make([]error, len(rest))
	parallel(len(rest), func(i int) {
		d := rest[i]
		body, err := text(d)
		if err != nil {
			errs[i] = err
			return
		}
		if d.topics = derived.Match(d.names(), body); len(d.topics) == 0 {
			unnamed[i] = true
			terms[i] = subjectTermsOf(lx, d.names(), headingsOf(d, body), body)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var idx []int
	var kept []subjectTerms
	for i := range rest {
		if unnamed[i] {
			idx = append(idx, i)
			kept = append(kept, terms[i])
		}
	}
	terms = nil
	for k, t := range pickSubjects(lx, kept) {
		d := rest[idx[k]]
		if t == "" {
			t = root
		}
		d.topics = []string{t}
	}
	return nil
}

// byFolder assigns the topic of the document's deepest folder that holds at
// least minFolderPages files; it returns the documents left without one
// (those at the corpus root, or in folders that fold into it).
func byFolder(all, docs []*corpusDoc) []*corpusDoc {
	count := map[string]int{}
	for _, d := range all {
		for dir := path.Dir(d.rel); dir != "."; dir = path.Dir(dir) {
			count[dir]++
		}
	}
	var rest []*corpusDoc
	for _, d := range docs {
		dir := path.Dir(d.rel)
		for dir != "." && count[dir] < minFolderPages {
			dir = path.Dir(dir)
		}
		if dir == "." {
			rest = append(rest, d)
			continue
		}
		if parts := strings.Split(dir, "/"); len(parts) > maxFolderDepth {
			dir = strings.Join(parts[:maxFolderDepth], "/")
		}
		d.topics = []string{dir}
	}
	return rest
}

// byLinkGraph assigns documents linked from an index page of the corpus
// (one with at least minHubLinks outgoing links to other documents) the
// heading of the section that links them; sections that would gather fewer
// than minFolderPages documents fold into a topic named after the index
// page. It returns the documents left without a topic.
func byLinkGraph(all, docs []*corpusDoc) []*corpusDoc {
	if len(docs) == 0 {
		return nil
	}
	var hubs []*corpusDoc
	for _, d := range all {
		seen := map[string]bool{}
		for _, l := range d.links {
			if l.to != d.rel {
				seen[l.to] = true
			}
		}
		if len(seen) >= minHubLinks {
			hubs = append(hubs, d)
		}
	}
	sort.SliceStable(hubs, func(i, j int) bool { return len(hubs[i].links) > len(hubs[j].links) })
	want := map[string]*corpusDoc{}
	for _, d := range docs {
		want[d.rel] = d
	}
	pick := map[*corpusDoc]string{}
	hubOf := map[*corpusDoc]*corpusDoc{}
	for _, h := range hubs {
		for _, l := range h.links {
			d := want[l.to]
			if d == nil || d == h {
				continue
			}
			if _, done := pick[d]; done {
				continue
			}
			heading := l.heading
			if heading == "" {
				heading = h.title
			}
			pick[d], hubOf[d] = heading, h
		}
	}
	for _, h := range hubs {
		if want[h.rel] != nil {
			if _, done := pick[h]; !done {
				pick[h], hubOf[h] = h.title, h
			}
		}
	}
	size := map[string]int{}
	for _, t := range pick {
		size[content.TopicSlug(t)]++
	}
	var rest []*corpusDoc
	for _, d := range docs {
		t, ok := pick[d]
		if !ok {
			rest = append(rest, d)
			continue
		}
		if size[content.TopicSlug(t)] < minFolderPages {
			t = hubOf[d].title
		}
		d.topics = []string{t}
	}
	return rest
}
