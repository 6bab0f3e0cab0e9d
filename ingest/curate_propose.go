package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// ErrAlreadyProposed: a fix of the finding waits for review already.
var ErrAlreadyProposed = errors.New("a fix of this finding is proposed already")

// CurateProposeOptions says which curation findings to propose fixes of,
// and who proposes them.
type CurateProposeOptions struct {
	IDs      []string    // finding ids, as pt curate lists them
	Now      time.Time   // the decision time (what counts as stale); zero reads the space's clock
	MinPages int         // missing_concept's threshold; zero keeps kb.yaml's
	Author   wiki.Author // who proposes: the person running pt curate
}

// CurateProposal is one proposal opened for a finding: the JSON of `pt
// curate --propose --json`. Result is its batch, on its own branch.
type CurateProposal struct {
	Finding string `json:"finding"`
	Check   string `json:"check"`
	Title   string `json:"title"`
	*wiki.Result
}

// ProposeCurateFixes opens, for each finding, a proposal whose batch makes
// the fix a person would otherwise make by hand (see docs/curation.md),
// on a branch of its own: the space's branch and work tree do not move.
// Every id is checked first (open at HEAD, no proposal of it waiting); a
// bad one writes nothing. A rejected proposal does not count as waiting.
func ProposeCurateFixes(ctx context.Context, s *wiki.Space, opts CurateProposeOptions) ([]CurateProposal, error) {
	var ids []string
	for _, id := range opts.IDs {
		if id = strings.TrimSpace(id); id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("curate --propose: name a finding id (pt curate lists them)")
	}
	waiting, err := s.Proposals(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		for _, p := range waiting {
			if p.Finding == id {
				return nil, fmt.Errorf("finding %s: %w as %s (pt reject it to propose again)", id, ErrAlreadyProposed, p.ID)
			}
		}
	}
	targets, err := lint.CurateTargets(ctx, s, ids, lint.CurateOptions{Now: opts.Now, MinPages: opts.MinPages})
	if err != nil {
		return nil, err
	}
	fixes := make([]*curateFix, len(targets))
	for i, t := range targets {
		if fixes[i], err = planCurateFix(ctx, s, t); err != nil {
			return nil, err
		}
	}
	out := make([]CurateProposal, 0, len(fixes))
	for i, fx := range fixes {
		f := targets[i].Finding
		b := wiki.Batch{Kind: wiki.KindCurate, Title: fx.title, Body: fx.body, Author: opts.Author, Propose: true, Finding: f.ID}
		res, err := s.Apply(ctx, b, fx.stage)
		if err != nil {
			return out, fmt.Errorf("curate --propose %s: %w", f.ID, err)
		}
		out = append(out, CurateProposal{Finding: f.ID, Check: f.Check, Title: fx.title, Result: res})
	}
	return out, nil
}

// curateFix is the batch that fixes one finding: its title and body, and
// what it stages (read through the transaction, so that it is the same
// on whatever head it is prepared).
type curateFix struct {
	title, body string
	stage       func(ctx context.Context, tx *wiki.Tx) error
}

// planCurateFix decides the fix of one finding from the space at the
// target's head.
func planCurateFix(ctx context.Context, s *wiki.Space, t lint.CurateTarget) (*curateFix, error) {
	f := t.Finding
	read := func(p string) (*wiki.PageAt, error) { return s.ReadPage(ctx, t.Head, p) }
	var fx *curateFix
	var err error
	switch f.Check {
	case lint.CheckMerge:
		fx, err = mergeFix(f, t.Links, read)
	case lint.CheckStale:
		fx = staleFix(f)
	case lint.CheckContradiction:
		fx, err = contradictionFix(f)
	case lint.CheckMissingConcept:
		fx, err = conceptFix(t)
	case lint.CheckLesson:
		fx, err = lessonFix(s, f)
	default:
		err = fmt.Errorf("finding %s: pt has no fix to propose for %s", f.ID, f.Check)
	}
	if err != nil {
		return nil, fmt.Errorf("curate --propose %s: %w", f.ID, err)
	}
	fx.title = f.Check + " " + f.ID + ": " + fx.title
	return fx, nil
}
