package ingest

import (
	"context"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// taxonomy is the set of topics a source may be assigned to when its caller
// names none: the space's kb.yaml topic hints and its existing spokes, each
// with the words that speak for it.
type taxonomy struct {
	topics []*topicTerms
	bySlug map[string]*topicTerms
	df     map[string]int // in how many topics' vocabulary a word occurs
}

// topicTerms is one topic and its words: the name, the keywords of its
// kb.yaml hint, and a vocabulary from its description and member titles.
type topicTerms struct {
	name     string
	slug     string
	nameW    []string
	keywords [][]string
	vocab    map[string]float64
}

func newTaxonomy() *taxonomy {
	return &taxonomy{df: map[string]int{}, bySlug: map[string]*topicTerms{}}
}

// topic returns the entry for name, adding it when new.
func (tx *taxonomy) topic(name string) *topicTerms {
	slug := content.Slug(name)
	if t, ok := tx.bySlug[slug]; ok {
		return t
	}
	t := &topicTerms{name: name, slug: slug, nameW: contentWords(strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(name)), vocab: map[string]float64{}}
	tx.topics = append(tx.topics, t)
	tx.bySlug[slug] = t
	return t
}

// addVocab adds the words of s to t's vocabulary with the given weight.
func (t *topicTerms) addVocab(s string, weight float64) {
	for _, w := range contentWords(s) {
		t.vocab[w] += weight
	}
}

// finish computes the document frequencies once every topic is in.
func (tx *taxonomy) finish() {
	tx.df = map[string]int{}
	for _, t := range tx.topics {
		for _, w := range t.nameW {
			t.vocab[w] += 2
		}
		for _, k := range t.keywords {
			for _, w := range k {
				t.vocab[w] += 2
			}
		}
		for w := range t.vocab {
			tx.df[w]++
		}
	}
	sort.Slice(tx.topics, func(i, j int) bool { return tx.topics[i].slug < tx.topics[j].slug })
}

// loadTaxonomy reads the taxonomy of a space at rev: kb.yaml's topic hints
// and every spoke under topics/ (parts included), whose titles, summaries
// and member titles describe what the topic holds.
func loadTaxonomy(ctx context.Context, s *wiki.Space, rev wiki.Rev) (*taxonomy, error) {
	tax := newTaxonomy()
	for _, h := range s.Config().Topics {
		t := tax.topic(h.Name)
		t.addVocab(h.Description, 1)
		for _, k := range h.Keywords {
			if ws := contentWords(k); len(ws) > 0 {
				t.keywords = append(t.keywords, ws)
			}
		}
	}
	es, err := s.List(ctx, rev, wiki.TopicsDir)
	if err != nil {
		return nil, err
	}
	cache := cacheFor(s.StateDir())
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
			w = spokeWords{Name: pa.Page.Meta.Title, Summary: pa.Page.Meta.Summary, Members: memberTitles(pa.Page.Body)}
			if len(pa.Page.Meta.Topics) > 0 {
				w.Name = pa.Page.Meta.Topics[0]
			}
			if w.Name == "" {
				w.Name = strings.TrimSuffix(path.Base(e.Path), ".md")
			}
			cache.put(e.Blob, w)
		}
		t := tax.topic(w.Name)
		t.addVocab(w.Summary, 1)
		for _, title := range w.Members {
			t.addVocab(title, 1)
		}
	}
	cache.save(live)
	tax.finish()
	return tax, nil
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
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "- [") {
			continue
		}
		if j := strings.Index(l, "]("); j > 3 {
			out = append(out, strings.NewReplacer(`\[`, "[", `\]`, "]").Replace(l[3:j]))
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

// match returns the topics a source belongs to, best first; none when no
// topic scores enough.
func (tx *taxonomy) match(title string, body []byte) []string {
	if len(tx.topics) == 0 {
		return nil
	}
	titleW := contentWords(title)
	titleSet := setOf(titleW)
	bodyTF := map[string]float64{}
	n := 0
	for _, w := range contentWords(string(body)) {
		bodyTF[w]++
		if n++; n > 5000 {
			break
		}
	}
	for _, w := range titleW {
		bodyTF[w] += 3
	}
	type scored struct {
		name  string
		score float64
	}
	var out []scored
	nt := float64(len(tx.topics))
	idf := func(w string) float64 { return math.Log(1 + nt/float64(1+tx.df[w])) }
	var srcNorm float64
	srcVec := map[string]float64{}
	for w, c := range bodyTF {
		v := (1 + math.Log(c)) * idf(w)
		srcVec[w] = v
		srcNorm += v * v
	}
	srcNorm = math.Sqrt(srcNorm)
	titleIDF := 0.0
	for w := range titleSet {
		titleIDF += idf(w)
	}
	for _, t := range tx.topics {
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
		if srcNorm > 0 {
			var dot, tNorm float64
			for w, c := range t.vocab {
				v := (1 + math.Log(1+c)) * idf(w)
				tNorm += v * v
				dot += v * srcVec[w]
			}
			if tNorm > 0 {
				score += 3 * dot / (srcNorm * math.Sqrt(tNorm))
			}
		}
		if titleIDF > 0 {
			covered := 0.0
			for w := range titleSet {
				if t.vocab[w] > 0 {
					covered += idf(w)
				}
			}
			score += 3 * covered / titleIDF
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
