package retrieve

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// applied is a page whose applies_to covers one of the paths an agent is
// about to change, with how narrowly it does.
type applied struct {
	page *wiki.PageAt
	spec int // GlobSpecificity of its narrowest matching glob
}

// scopedPage is a page of a commit that declares applies_to.
type scopedPage struct {
	path, blob string
	globs      []string
}

// maxCachedGlobs bounds the blobs whose applies_to is remembered: a blob's
// content never changes, so after the first query a new commit costs only
// the pages it changed.
const maxCachedGlobs = 1 << 16

// scopedPages lists the pages at head that declare applies_to. It is kept
// per commit, and each page's globs per blob, so that only the pages a new
// commit changed are read again.
func (eng *Engine) scopedPages(ctx context.Context, head wiki.Rev) ([]scopedPage, error) {
	s, caches := eng.space, &eng.cache
	caches.Lock()
	if c := caches.commitEntry(head); c.hasSc {
		out := c.scoped
		caches.Unlock()
		return out, nil
	}
	caches.Unlock()
	es, err := s.Pages(ctx, head)
	if err != nil {
		return nil, err
	}
	var out []scopedPage
	for _, e := range es {
		if !indexed(e.Path) || strings.HasPrefix(e.Path, wiki.TopicsDir) {
			continue
		}
		caches.Lock()
		globs, known := caches.globs[e.Blob]
		caches.Unlock()
		if !known {
			data, err := s.ReadBlob(ctx, e.Blob)
			if err != nil {
				continue
			}
			if bytes.Contains(data, []byte("applies_to")) {
				if pg, err := content.Parse(e.Path, data); err == nil {
					globs = pg.Meta.AppliesTo
				}
			}
			caches.Lock()
			if len(caches.globs) >= maxCachedGlobs {
				clear(caches.globs)
			}
			caches.globs[e.Blob] = globs
			caches.Unlock()
		}
		if len(globs) > 0 {
			out = append(out, scopedPage{path: e.Path, blob: e.Blob, globs: globs})
		}
	}
	caches.Lock()
	c := caches.commitEntry(head)
	c.scoped, c.hasSc = out, true
	caches.Unlock()
	return out, nil
}

// applying returns the active pages at head that apply to any of paths and
// that req's filters admit, most specific first, one per canonical key (a
// source rather than its summary).
func (eng *Engine) applying(ctx context.Context, head wiki.Rev, req Request) ([]applied, error) {
	s := eng.space
	scoped, err := eng.scopedPages(ctx, head)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{} // canonical key → index in out
	var out []applied
	for _, sp := range scoped {
		spec := -1
		for _, g := range sp.globs {
			if content.CheckGlob(g) != nil {
				continue
			}
			for _, p := range req.Paths {
				if content.MatchGlob(g, p) {
					spec = max(spec, content.GlobSpecificity(g))
				}
			}
		}
		if spec < 0 {
			continue
		}
		pa, err := eng.cache.parsedBlob(ctx, s, sp.blob, sp.path)
		if err != nil || !pa.Page.Meta.Active(req.Now) || !req.admits(pa.Page.Meta) {
			continue
		}
		a := applied{page: pa, spec: spec}
		key := canonical(sp.path)
		if i, ok := seen[key]; ok {
			if pa.Page.Meta.Kind == content.KindSource {
				out[i] = a
			}
			continue
		}
		seen[key] = len(out)
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b applied) int { return b.spec - a.spec })
	return out, nil
}

// appliedFirst puts the pages that apply to req.Paths ahead of res's
// results: a page already among them moves up with its excerpt, another
// comes in with the opening of its text (or the paragraphs holding the
// question's words). The rest keep their order behind them, within K and
// the budget. The answer is sufficient when a page applies: it is what
// the agent must know before it changes those files.
func appliedFirst(res *Result, ap []applied, req Request, terms []string) {
	if len(ap) == 0 {
		return
	}
	var first []Hit
	taken := map[string]bool{}
	for _, a := range ap {
		key := canonical(a.page.Path)
		taken[key] = true
		if i := slices.IndexFunc(res.Results, func(h Hit) bool { return canonical(h.Path) == key }); i >= 0 {
			first = append(first, res.Results[i])
			continue
		}
		first = append(first, appliedHit(a.page, terms))
	}
	for _, h := range res.Results {
		if !taken[canonical(h.Path)] {
			first = append(first, h)
		}
	}
	res.Results, res.Tokens = []Hit{}, 0
	for _, h := range first {
		if len(res.Results) == req.K || res.Tokens+h.Tokens > req.Budget {
			break
		}
		res.Results = append(res.Results, h)
		res.Tokens += h.Tokens
	}
	if len(res.Results) > 0 {
		// A page that applies answers: the nearest pages of a refusal go.
		res.Sufficient, res.Trace.Reason, res.Nearest = true, "", []Near{}
	}
}

// appliedHit is the excerpt of a page that applies: its text trimmed to an
// excerpt of the usual size.
func appliedHit(pa *wiki.PageAt, terms []string) Hit {
	m := pa.Page.Meta
	title := strings.TrimSpace(m.Title)
	if title == "" {
		title = content.TitleFromPath(pa.Path)
	}
	kind := m.Kind
	if kind == "" {
		kind = content.KindPage
	}
	ex := excerpt(string(pa.Page.Body), terms, otherExcerptTokens)
	return Hit{Path: pa.Path, Title: title, Revision: pa.Revision, Excerpt: ex, Kind: kind, Tokens: EstimateTokens(ex)}
}

// admits reports whether a page passes req's topic, kind and date filters.
// A page with no date (created or updated) never passes a Since filter.
func (req Request) admits(m content.Meta) bool {
	if len(req.Kinds) > 0 {
		kind := m.Kind
		if kind == "" {
			kind = content.KindPage
		}
		if !slices.Contains(req.Kinds, kind) {
			return false
		}
	}
	if len(req.Topics) > 0 && !slices.ContainsFunc(m.Topics, func(t string) bool {
		return slices.ContainsFunc(req.Topics, func(w string) bool { return strings.EqualFold(t, w) })
	}) {
		return false
	}
	if !req.Since.IsZero() {
		when := m.Updated
		if when.IsZero() {
			when = m.Created
		}
		if when.IsZero() || when.Before(req.Since) {
			return false
		}
	}
	return true
}

// filtered reports whether req narrows the answer by topic, kind or date.
func (req Request) filtered() bool {
	return len(req.Kinds) > 0 || len(req.Topics) > 0 || !req.Since.IsZero()
}

// withPaths answers a request that names the files the agent is about to
// change: the question's answer, if it asks one, with the pages that apply
// to those files ahead of it; without a question, those pages alone.
func (eng *Engine) withPaths(ctx context.Context, req Request) (*Result, error) {
	s := eng.space
	var res *Result
	terms := index.Terms(req.Question)
	if len(terms) > 0 {
		r, err := eng.ask(ctx, req)
		if err != nil {
			return nil, err
		}
		res = r
	} else {
		res = &Result{Question: req.Question, MissingTerms: []string{}, Results: []Hit{}, Nearest: []Near{}, Trace: Trace{Topics: []string{}, Index: "none"}}
	}
	if req.Budget > 0 && req.Budget < MinBudget {
		return nil, ErrBudgetTooSmall
	}
	req = withDefaults(req)
	if req.Now.IsZero() {
		req.Now = s.Now()
	}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	res.Trace.Commit = string(head)
	if head == "" {
		res.Trace.Reason = "the space has no commits"
		return res, nil
	}
	ap, err := eng.applying(ctx, head, req)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	res.Trace.Applied = len(ap)
	appliedFirst(res, ap, req, terms)
	if !res.Sufficient && res.Trace.Reason == "" {
		res.Trace.Reason = "no page applies to " + strings.Join(req.Paths, ", ")
	}
	return res, nil
}

// cleanPaths checks and cleans req.Paths: each is a path of the code
// repository, relative to its root.
func cleanPaths(req *Request) error {
	clean := make([]string, 0, len(req.Paths))
	for _, p := range req.Paths {
		q, err := content.CleanRepoPath(p)
		if err != nil {
			return fmt.Errorf("query: %w", err)
		}
		clean = append(clean, q)
	}
	if len(clean) > 0 {
		req.Paths = clean
	}
	return nil
}
