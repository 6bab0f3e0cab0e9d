package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Errors of CurateTargets that callers branch on: both are bad input.
var (
	// ErrUnknownFinding: no curation finding has that id, at HEAD or in
	// findings.json.
	ErrUnknownFinding = errors.New("no such curation finding")
	// ErrResolvedFinding: the finding was found once, and HEAD no longer
	// has it.
	ErrResolvedFinding = errors.New("finding already resolved")
)

// MaxTermUses bounds how many pages a missing concept's uses list: a term
// on hundreds of pages is listed on its first ones.
const MaxTermUses = 50

// CurateTarget is an open curation finding as the rules see it at HEAD,
// with what a fix of it rests on beyond its evidence.
type CurateTarget struct {
	Finding Finding
	Head    wiki.Rev
	// Uses (missing_concept) is every page that uses the term, by path,
	// with the first sentence that does (at most MaxTermUses of them);
	// UsesTotal counts them all.
	Uses      []Evidence
	UsesTotal int
	// Links (merge_candidate) is how many other pages link to each of the
	// two pages (the hub, spokes and log, and the pair itself, left out).
	Links map[string]int
}

// CurateTargets runs the curation rules at HEAD (no model, nothing
// written but the facts cache) and returns the findings ids names, each
// open at HEAD. An id that no rule finds now is ErrResolvedFinding when
// findings.json knows it, else ErrUnknownFinding; a lint finding's id is
// refused too. Ids are checked before anything else is read.
func CurateTargets(ctx context.Context, s *wiki.Space, ids []string, opts CurateOptions) ([]CurateTarget, error) {
	now := opts.Now
	if now.IsZero() {
		now = s.Now()
	}
	now = now.UTC().Truncate(time.Second)
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	cachePath := filepath.Join(s.StateDir(), "curate", "facts.gob")
	if opts.NoCache {
		cachePath = ""
	}
	cache := openFactsCache(cachePath)
	cs, err := loadCurSpace(ctx, s, head, now, curateLimitsFor(s, opts), cache)
	if err != nil {
		return nil, err
	}
	cache.save()
	open := map[string]Finding{}
	for _, f := range cs.candidates() {
		open[f.ID] = f
	}
	prev, err := Findings(ctx, s, head)
	if err != nil {
		return nil, fmt.Errorf("curate: %w", err)
	}
	out := make([]CurateTarget, 0, len(ids))
	for _, id := range ids {
		f, ok := open[id]
		if !ok {
			return nil, missingFinding(id, prev)
		}
		t := CurateTarget{Finding: f, Head: head}
		switch f.Check {
		case CheckMissingConcept:
			t.Uses, t.UsesTotal, err = cs.termUses(ctx, s, f.Target)
		case CheckMerge:
			t.Links, err = inboundLinks(ctx, s, head, []string{f.Path, f.Target})
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// missingFinding says why id is not open at HEAD.
func missingFinding(id string, prev []Finding) error {
	for _, f := range prev {
		if f.ID != id {
			continue
		}
		switch {
		case !IsCuration(f.Check):
			return fmt.Errorf("finding %s: %w: it is %s, a lint check", id, ErrUnknownFinding, f.Check)
		case f.Open():
			return fmt.Errorf("%s %s (%s): %w: the rules no longer find it at HEAD", f.Check, location(f), id, ErrResolvedFinding)
		}
		return fmt.Errorf("%s %s (%s): %w on %s", f.Check, location(f), id, ErrResolvedFinding, f.ResolvedAt.Format("2006-01-02"))
	}
	return fmt.Errorf("finding %q: %w (pt curate lists them)", id, ErrUnknownFinding)
}

// termUses finds the pages that use the phrase key and, on each, the
// first sentence that does.
func (cs *curSpace) termUses(ctx context.Context, s *wiki.Space, key string) ([]Evidence, int, error) {
	var out []Evidence
	total := 0
	for _, p := range cs.pages {
		if !p.claimsCount() || wiki.IsIndexPage(p.path) || !slices.Contains(p.f.Phrases, key) {
			continue
		}
		total++
		if len(out) >= MaxTermUses {
			continue
		}
		data, err := s.ReadBlob(ctx, p.blob)
		if err != nil {
			return nil, 0, fmt.Errorf("curate %s: %w", p.path, err)
		}
		pg, err := content.Parse(p.path, data)
		if err != nil {
			continue
		}
		first := 1 + bytes.Count(data[:len(data)-len(pg.Body)], []byte("\n"))
		sents, _ := segment(pg.Body, first)
		for _, sn := range sents {
			if slices.Contains(phrasesOf([]sentence{sn}), key) {
				out = append(out, Evidence{Path: p.path, Line: sn.Line, Revision: p.blob, Text: sn.Text})
				break
			}
		}
	}
	return out, total, nil
}

// inboundLinks counts, for each target page, the other pages that link to
// it. Only pages whose text names a target (its file name or title) are
// parsed; the hub, spokes and log, and links among the targets, do not
// count.
func inboundLinks(ctx context.Context, s *wiki.Space, rev wiki.Rev, targets []string) (map[string]int, error) {
	es, err := s.List(ctx, rev, "")
	if err != nil {
		return nil, err
	}
	snap := &snapshot{files: make(map[string]string, len(es)), dirs: map[string]bool{}}
	// A relative link names the target's file; a [[wiki link]] may name
	// its title instead.
	var keys [][]byte
	for _, t := range targets {
		keys = append(keys, []byte(strings.ToLower(strings.TrimSuffix(filepath.Base(t), ".md"))))
		if pa, err := s.ReadPage(ctx, rev, t); err == nil && pa.Page.Meta.Title != "" {
			keys = append(keys, []byte(strings.ToLower(pa.Page.Meta.Title)))
		}
	}
	var parsed []*page
	for _, e := range es {
		snap.files[e.Path] = e.Blob
		snap.addDirs(e.Path)
		if !isPage(e.Path) {
			continue
		}
		// A page left unread has no facts: its title is not a wiki name.
		p := &page{path: e.Path, blob: e.Blob, lintFacts: &lintFacts{}}
		snap.pages = append(snap.pages, p)
		if wiki.IsIndexPage(e.Path) {
			continue
		}
		data, err := s.ReadBlob(ctx, e.Blob)
		if err != nil {
			return nil, fmt.Errorf("curate %s: %w", e.Path, err)
		}
		lower := bytes.ToLower(data)
		if slices.Contains(targets, e.Path) || slices.ContainsFunc(keys, func(k []byte) bool { return bytes.Contains(lower, k) }) {
			p.parse(data)
			parsed = append(parsed, p)
		}
	}
	snap.index()
	counts := make(map[string]int, len(targets))
	for _, p := range parsed {
		if slices.Contains(targets, p.path) {
			continue
		}
		seen := map[string]bool{}
		for _, l := range p.Links {
			if t, _, ok := snap.resolve(p, l); ok && t != nil && slices.Contains(targets, t.path) && !seen[t.path] {
				seen[t.path] = true
				counts[t.path]++
			}
		}
	}
	return counts, nil
}
