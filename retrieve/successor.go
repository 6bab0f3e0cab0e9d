package retrieve

import (
	"context"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// Redirect says that a question matched a superseded page and was
// answered from its successor instead.
type Redirect struct {
	From string `json:"from"` // the superseded page
	To   string `json:"to"`   // the active page that supersedes it
}

// maxSuccessors bounds how far a chain of superseded pages is followed.
const maxSuccessors = 16

// successorOf follows superseded_by from a superseded page to the first
// active page, nil when the chain ends elsewhere (a retracted or missing
// page, or a chain too long).
func successorOf(ctx context.Context, s *wiki.Space, head wiki.Rev, pa *wiki.PageAt, req Request) *wiki.PageAt {
	at := pa
	for range maxSuccessors {
		next := at.Page.Meta.SupersededBy
		if at.Page.Meta.Status != content.StatusSuperseded || next == "" {
			return nil
		}
		n, err := s.ReadPage(ctx, head, next)
		if err != nil {
			return nil
		}
		if n.Page.Meta.Active(req.Now) {
			return n
		}
		at = n
	}
	return nil
}

// successorSection is the section of succ that best answers the question
// (its title's words count too, so that a successor worded differently
// still gives its lead); ok is false when the index holds none.
func successorSection(ctx context.Context, ix *index.Index, succ *wiki.PageAt, req Request) (index.Hit, bool, error) {
	hits, err := ix.Search(ctx, index.Query{Text: req.Question + " " + succ.Page.Meta.Title, Types: []string{typeSection},
		Paths: []string{succ.Path}, Limit: 3, ExcludeStatus: inactive})
	if err != nil || len(hits) == 0 {
		return index.Hit{}, false, err
	}
	for _, h := range hits {
		if hasText(h.Body) {
			return h, true, nil
		}
	}
	return hits[0], true, nil
}

// redirects lists the superseded pages the packed results stand in for.
func redirects(cs []candidate, hits []Hit) []Redirect {
	in := map[string]bool{}
	for _, h := range hits {
		in[h.Path] = true
	}
	var out []Redirect
	for _, c := range cs {
		if c.from != "" && in[c.sec.Path] {
			out = append(out, Redirect{From: c.from, To: c.sec.Path})
		}
	}
	return out
}
