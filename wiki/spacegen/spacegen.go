// Package spacegen generates realistic spaces of any size for benchmarks and
// tests: sources with their summaries (derived_from pinned to the source's
// blob), concept pages that link to each other, topics with spokes and a
// hub, all written through wiki.Apply like any other batch.
package spacegen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Options sizes a generated space. Zero values: 1,000 pages, seed 1, one
// topic per 25 pages, everything in one batch.
type Options struct {
	Pages     int    // total content pages (sources + summaries + pages)
	Seed      uint64 // same seed, same space
	Topics    int    // number of topics
	BatchSize int    // pages per batch (0: all in one batch)
	When      time.Time
}

// Generate creates a space in dir (a new repository) and fills it.
func Generate(ctx context.Context, dir string, o Options) (*wiki.Space, error) {
	o = o.withDefaults()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "generated", When: o.When})
	if err != nil {
		return nil, err
	}
	if err := Fill(ctx, s, o); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// withDefaults fills in the zero values Options documents.
func (o Options) withDefaults() Options {
	if o.Pages <= 0 {
		o.Pages = 1000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Topics <= 0 {
		o.Topics = max(1, o.Pages/25)
	}
	if o.When.IsZero() {
		o.When = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	}
	return o
}

// Fill adds o.Pages generated pages to an existing space.
func Fill(ctx context.Context, s *wiki.Space, o Options) error {
	o = o.withDefaults()
	g := newGen(o)
	docs := g.plan()
	size := o.BatchSize
	if size <= 0 {
		size = len(docs)
	}
	for start := 0; start < len(docs); start += size {
		chunk := docs[start:min(start+size, len(docs))]
		_, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindImport, Title: fmt.Sprintf("generated pages %d-%d", start+1, start+len(chunk)),
			ApprovedBy: "spacegen", When: o.When.Add(time.Duration(start) * time.Second)},
			func(ctx context.Context, tx *wiki.Tx) error {
				blobs := map[string]string{}
				for _, d := range chunk {
					if d.derivedFrom != "" {
						d.meta.Provenance.DerivedFrom = []content.Ref{{Path: d.derivedFrom, Revision: blobs[d.derivedFrom]}}
					}
					pg := content.NewPage(d.meta, []byte(d.body))
					b, err := tx.Put(ctx, d.path, pg, d.role)
					if err != nil {
						return err
					}
					blobs[d.path] = b
				}
				return nil
			})
		if err != nil {
			return err
		}
	}
	return nil
}

type doc struct {
	path, body, role, derivedFrom string
	meta                          content.Meta
}

type gen struct {
	o      Options
	r      *rand.Rand
	zipf   *rand.Zipf
	topics []string
}

func newGen(o Options) *gen {
	r := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	g := &gen{o: o, r: r, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))}
	seen := map[string]bool{}
	for len(g.topics) < o.Topics {
		t := vocabulary[r.IntN(len(vocabulary))]
		if len(g.topics) >= len(vocabulary)/2 || seen[t] {
			t = fmt.Sprintf("%s-%s", t, vocabulary[r.IntN(len(vocabulary))])
		}
		if !seen[t] {
			seen[t] = true
			g.topics = append(g.topics, t)
		}
	}
	return g
}

func (g *gen) word() string { return vocabulary[g.zipf.Uint64()] }

func (g *gen) sentence() string {
	n := 6 + g.r.IntN(14)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) paragraph() string {
	n := 2 + g.r.IntN(4)
	ss := make([]string, n)
	for i := range ss {
		ss[i] = g.sentence()
	}
	return strings.Join(ss, " ")
}

func (g *gen) title() string {
	n := 2 + g.r.IntN(4)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocabulary[g.r.IntN(len(vocabulary))]
	}
	t := strings.Join(ws, " ")
	return strings.ToUpper(t[:1]) + t[1:]
}

// plan lays out the pages: a third sources, a third their summaries, a
// third concept pages that link to earlier pages.
func (g *gen) plan() []doc {
	n := g.o.Pages
	var docs []doc
	var linkable []string
	for i := 0; len(docs) < n; i++ {
		topic := g.topics[g.r.IntN(len(g.topics))]
		title := g.title()
		slug := fmt.Sprintf("%s-%d", content.Slug(title), i)
		when := g.o.When
		switch i % 3 {
		case 0, 1:
			if i%3 == 1 {
				continue
			}
			src := "sources/" + slug + ".md"
			docs = append(docs, doc{path: src, role: wiki.RoleSource, body: g.body(title, nil), meta: content.Meta{
				Title: title, Kind: content.KindSource, Topics: []string{topic}, SourceKind: "meeting-notes",
				Author: content.Author{Kind: content.AuthorHuman, Name: "gen"}, Created: when, Updated: when,
				Provenance: content.Provenance{ApprovedBy: "spacegen"}}})
			if len(docs) < n {
				sum := "summaries/" + slug + ".md"
				docs = append(docs, doc{path: sum, role: wiki.RoleSummary, derivedFrom: src,
					body: "# " + title + "\n\nSummary of [" + title + "](../sources/" + slug + ".md).\n\n" + g.paragraph() + "\n",
					meta: content.Meta{Title: title + " (summary)", Kind: content.KindSummary, Topics: []string{topic}, Summary: g.sentence(),
						Author: content.Author{Kind: content.AuthorAgent, Name: "pt"}, Created: when, Updated: when}})
				linkable = append(linkable, sum)
			}
		case 2:
			p := "pages/" + slug + ".md"
			var links []string
			for k := 0; k < 3 && len(linkable) > 0; k++ {
				links = append(links, linkable[g.r.IntN(len(linkable))])
			}
			docs = append(docs, doc{path: p, role: wiki.RolePage, body: g.body(title, links), meta: content.Meta{
				Title: title, Kind: content.KindPage, Topics: []string{topic, g.topics[g.r.IntN(len(g.topics))]}, Summary: g.sentence(),
				Author: content.Author{Kind: content.AuthorAgent, Name: "pt"}, Created: when, Updated: when}})
			linkable = append(linkable, p)
		}
	}
	return docs[:n]
}

func (g *gen) body(title string, links []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n", title, g.paragraph())
	for s := 0; s < 2+g.r.IntN(3); s++ {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", g.title(), g.paragraph())
	}
	if len(links) > 0 {
		b.WriteString("\n## Related\n\n")
		for _, l := range links {
			fmt.Fprintf(&b, "- [%s](../%s)\n", content.TitleFromPath(l), l)
		}
	}
	return b.String()
}
