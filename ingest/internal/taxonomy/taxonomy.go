// Package taxonomy matches a source to the topics a space already has when
// its caller names none: kb.yaml's topic hints and the spokes under topics/,
// each with the words that speak for it. It reads a space at a revision and
// caches each spoke's words by blob id in the space's state directory.
package taxonomy

import (
	"context"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Set is the set of topics a source may be assigned to when its caller
// names none: the space's kb.yaml topic hints and its existing spokes, each
// with the words that speak for it.
type Set struct {
	topics []*Topic
	bySlug map[string]*Topic
	// terms is built by Finish: for each word, its idf and the topics
	// whose vocabulary holds it, so that matching a source costs what the
	// source's words cost, not the size of every topic's vocabulary.
	terms map[string]*termTopics
}

// Topic is one topic and its words: the name, the keywords of its
// kb.yaml hint, and a vocabulary from its description and member titles.
type Topic struct {
	name     string
	slug     string
	nameW    []string
	keywords [][]string
	vocab    map[string]float64 // words added with AddVocab
	spokes   []string           // the words of its spokes, space-separated, repeats kept
	norm     float64            // length of its weighted vector (Finish)
}

// termTopics is one word of the taxonomy: its idf over the topics and the
// topics that hold it, with the word's count in each.
type termTopics struct {
	idf    float64
	topics []termCount
}

type termCount struct {
	topic int // index in taxonomy.topics
	count float64
}

// New returns an empty Set, to fill with Topic and AddVocab and close with
// Finish.
func New() *Set {
	return &Set{bySlug: map[string]*Topic{}}
}

var nameSeparators = strings.NewReplacer("-", " ", "_", " ", "/", " ")

// Topic returns the entry for name, adding it when new.
func (tx *Set) Topic(name string) *Topic {
	slug := content.TopicSlug(name)
	if t, ok := tx.bySlug[slug]; ok {
		return t
	}
	t := &Topic{name: name, slug: slug, nameW: content.Words(nameSeparators.Replace(name)), vocab: map[string]float64{}}
	tx.topics = append(tx.topics, t)
	tx.bySlug[slug] = t
	return t
}

// AddVocab adds the words of s to t's vocabulary with the given weight.
func (t *Topic) AddVocab(s string, weight float64) {
	for _, w := range content.Words(s) {
		t.vocab[w] += weight
	}
}

// Finish indexes the topics' words once every topic is in: each topic's
// vocabulary is its own words, its spokes' words, and its name and
// keywords (2 each).
func (tx *Set) Finish() {
	sort.Slice(tx.topics, func(i, j int) bool { return tx.topics[i].slug < tx.topics[j].slug })
	tx.terms = map[string]*termTopics{}
	for i, t := range tx.topics {
		add := func(w string, c float64) {
			tt := tx.terms[w]
			if tt == nil {
				tt = &termTopics{}
				tx.terms[w] = tt
			}
			if n := len(tt.topics); n > 0 && tt.topics[n-1].topic == i {
				tt.topics[n-1].count += c
				return
			}
			tt.topics = append(tt.topics, termCount{i, c})
		}
		for w, c := range t.vocab {
			add(w, c)
		}
		for _, sp := range t.spokes {
			for w := range strings.FieldsSeq(sp) {
				add(w, 1)
			}
		}
		for _, w := range t.nameW {
			add(w, 2)
		}
		for _, k := range t.keywords {
			for _, w := range k {
				add(w, 2)
			}
		}
	}
	nt := float64(len(tx.topics))
	for _, tt := range tx.terms {
		tt.idf = math.Log(1 + nt/float64(1+len(tt.topics)))
		for _, tc := range tt.topics {
			v := (1 + math.Log(1+tc.count)) * tt.idf
			tx.topics[tc.topic].norm += v * v
		}
	}
	for _, t := range tx.topics {
		t.norm = math.Sqrt(t.norm)
	}
}

// Load reads the taxonomy of a space at rev: kb.yaml's topic hints
// and every spoke under topics/ (parts included), whose titles, summaries
// and member titles describe what the topic holds.
func Load(ctx context.Context, s *wiki.Space, rev wiki.Rev) (*Set, error) {
	tax := New()
	for _, h := range s.Config().Topics {
		t := tax.Topic(h.Name)
		t.AddVocab(h.Description, 1)
		for _, k := range h.Keywords {
			if ws := content.Words(k); len(ws) > 0 {
				t.keywords = append(t.keywords, ws)
			}
		}
	}
	es, err := s.List(ctx, rev, wiki.TopicsDir)
	if err != nil {
		return nil, err
	}
	cache := cacheFor(s)
	live := map[string]bool{}
	for _, e := range es {
		if !strings.HasSuffix(e.Path, ".md") {
			continue
		}
		live[e.Blob] = true
		w, ok := cache.get(e.Blob)
		if !ok {
			pa, err := s.ReadPage(ctx, rev, e.Path)
			if err != nil {
				continue // a broken spoke is lint's business, not a reason to refuse a source
			}
			w = &spokeWords{Name: pa.Page.Meta.Title, Words: spokeVocab(pa.Page.Meta.Summary, pa.Page.Body)}
			if len(pa.Page.Meta.Topics) > 0 {
				w.Name = pa.Page.Meta.Topics[0]
			}
			if w.Name == "" {
				w.Name = strings.TrimSuffix(path.Base(e.Path), ".md")
			}
			cache.put(e.Blob, w)
		}
		t := tax.Topic(w.Name)
		t.spokes = append(t.spokes, w.Words)
	}
	cache.save(live)
	tax.Finish()
	return tax, nil
}

// spokeVocab returns the content words of a spoke's summary and member
// titles, space-separated, repeats kept: what spokeWords caches.
func spokeVocab(summary string, body []byte) string {
	var b strings.Builder
	add := func(s string) {
		for _, w := range content.Words(s) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
	}
	add(summary)
	for _, title := range memberTitles(body) {
		add(title)
	}
	return b.String()
}

// memberTitles returns the link texts of the generated member list of a
// spoke ("- [Title](path) — summary" lines between the pt:members markers).
func memberTitles(body []byte) []string {
	s := string(body)
	i := strings.Index(s, "<!-- pt:members")
	if i < 0 {
		return nil
	}
	s = s[i:]
	if j := strings.Index(s, "<!-- /pt:members -->"); j >= 0 {
		s = s[:j]
	}
	var out []string
	for l := range strings.Lines(s) {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "- [") {
			continue
		}
		if j := strings.Index(l, "]("); j > 3 {
			out = append(out, content.UnescapeInline(l[3:j]))
		}
	}
	return out
}

// Thresholds of topic assignment. A topic's score adds: its whole name in
// the title (3) or in the body (1.5); 2 per keyword found (at most 4); 3
// times the idf-weighted share of the title's words found in its
// vocabulary (description, member titles); and 3 times the cosine of the
// source's words and that vocabulary. A topic is assigned when the score
// reaches minTopicScore: its name in the title alone does it, and so do
// two thirds of the title's words among its members' titles. At most
// maxTopics are assigned, and only those within half of the best score.
const (
	minTopicScore = 2.0
	maxTopics     = 2
)

// Match returns the topics a source belongs to, best first; none when no
// topic scores enough.
func (tx *Set) Match(title string, body []byte) []string {
	if len(tx.topics) == 0 {
		return nil
	}
	titleW := content.Words(title)
	titleSet := setOf(titleW)
	bodyTF := map[string]float64{}
	n := 0
	for _, w := range content.Words(string(body)) {
		bodyTF[w]++
		if n++; n > 5000 {
			break
		}
	}
	for _, w := range titleW {
		bodyTF[w] += 3
	}
	nt := float64(len(tx.topics))
	idf := func(w string) float64 {
		if tt := tx.terms[w]; tt != nil {
			return tt.idf
		}
		return math.Log(1 + nt)
	}
	// dot and covered accumulate, per topic, the cosine's numerator and
	// the idf of the title's words found in its vocabulary.
	dot := make([]float64, len(tx.topics))
	covered := make([]float64, len(tx.topics))
	var srcNorm float64
	for w, c := range bodyTF {
		v := (1 + math.Log(c)) * idf(w)
		srcNorm += v * v
		if tt := tx.terms[w]; tt != nil {
			for _, tc := range tt.topics {
				dot[tc.topic] += (1 + math.Log(1+tc.count)) * tt.idf * v
			}
		}
	}
	srcNorm = math.Sqrt(srcNorm)
	titleIDF := 0.0
	for w := range titleSet {
		titleIDF += idf(w)
		if tt := tx.terms[w]; tt != nil {
			for _, tc := range tt.topics {
				covered[tc.topic] += tt.idf
			}
		}
	}
	type scored struct {
		name  string
		score float64
	}
	var out []scored
	for i, t := range tx.topics {
		score := 0.0
		if len(t.nameW) > 0 {
			switch {
			case allIn(t.nameW, titleSet):
				score += 3
			case allInTF(t.nameW, bodyTF):
				score += 1.5
			}
		}
		kw := 0.0
		for _, k := range t.keywords {
			if allInTF(k, bodyTF) {
				kw += 2
			}
		}
		score += math.Min(kw, 4)
		if srcNorm > 0 && t.norm > 0 {
			score += 3 * dot[i] / (srcNorm * t.norm)
		}
		if titleIDF > 0 {
			score += 3 * covered[i] / titleIDF
		}
		if score >= minTopicScore {
			out = append(out, scored{t.name, score})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].name < out[j].name
	})
	var names []string
	for _, s := range out {
		if len(names) == maxTopics || s.score < out[0].score/2 {
			break
		}
		names = append(names, s.name)
	}
	return names
}

func setOf(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func allIn(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if !set[w] {
			return false
		}
	}
	return len(ws) > 0
}

func allInTF(ws []string, tf map[string]float64) bool {
	for _, w := range ws {
		if tf[w] == 0 {
			return false
		}
	}
	return len(ws) > 0
}
