package lint

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// CurateOptions configures a curation run. The zero value curates HEAD at
// the space's clock with kb.yaml's thresholds (else pt's defaults), no
// model, the cache in the space's derived state, and commits as "pt".
type CurateOptions struct {
	Now       time.Time     // the decision time: stale claims and first/last seen; zero reads the space's clock
	DryRun    bool          // curate and compare, but write nothing to the repository
	Author    wiki.Author   // who the batch is by; zero means "pt"
	Retention time.Duration // how long resolved rows are kept; zero means DefaultRetention
	// MinPages, VersionHorizon and StaleAfter override kb.yaml curate.*;
	// zero keeps it (and its defaults: 5 pages, 4 minor versions, 365 days).
	MinPages       int
	VersionHorizon int
	StaleAfter     time.Duration
	Model          Confirmer // nil: the mechanical rules alone
	NoCache        bool      // read every page, keep nothing in the derived state
}

// Curation defaults, used when neither the options nor kb.yaml set them.
const (
	DefaultVersionHorizon = 4
	DefaultStaleAfter     = 365 * 24 * time.Hour
)

// CurateReport is what a curation run saw and did: the --json output of
// pt curate. Its Report holds every row of findings.json, lint's too.
type CurateReport struct {
	*Report
	Pages int         `json:"pages"` // pages in the space
	Read  int         `json:"read"`  // pages read this run; the others came from the cache
	Model *ModelStats `json:"model,omitempty"`
}

// Curate runs the curation rules over the space at HEAD and, unless
// DryRun, commits their findings into findings.json as one batch with a
// log entry: the curation rows get the lint rows' lifecycle, and lint's
// rows are left as they are. It never writes a page.
func Curate(ctx context.Context, s *wiki.Space, opts CurateOptions) (*CurateReport, error) {
	now, when := opts.Now, time.Time{}
	if now.IsZero() {
		now = s.Now()
		when = now
	}
	now = now.UTC().Truncate(time.Second)
	lim := curateLimitsFor(s, opts)
	cachePath := filepath.Join(s.StateDir(), "curate", "facts.gob")
	if opts.NoCache {
		cachePath = ""
	}
	cache := openFactsCache(cachePath)
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	rep, plan, err := planCurate(ctx, s, head, now, lim, opts, cache)
	if err != nil {
		return nil, err
	}
	cache.save()
	if opts.DryRun {
		rep.DryRun = true
		return rep, nil
	}
	b := wiki.Batch{Kind: wiki.KindLint, Author: opts.Author, When: when}
	res, err := s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		if tx.Head() != head {
			// Another batch landed: curate the space as it is now (the
			// cache makes this cheap for the pages it did not touch).
			head = tx.Head()
			rep, plan, err = planCurate(ctx, s, head, now, lim, opts, cache)
			if err != nil {
				return err
			}
		}
		tx.Describe(plan.title, plan.body)
		if plan.data != nil {
			if _, err := tx.PutFile(ctx, FindingsPath, plan.data, wiki.RoleFindings); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("curate: %w", err)
	}
	if !res.Unchanged {
		rep.Batch = res
	}
	return rep, nil
}

// curatePlan is findings.json as a run leaves it, and its batch message.
type curatePlan struct {
	data        []byte // nil when the file stays as it is
	title, body string
}

func planCurate(ctx context.Context, s *wiki.Space, head wiki.Rev, now time.Time, lim curateLimits, opts CurateOptions, cache *factsCache) (*CurateReport, *curatePlan, error) {
	rep := &CurateReport{Report: &Report{Space: strings.TrimSuffix(s.Prefix(), "/"), Name: s.Config().Name, Commit: string(head), Findings: []Finding{}}}
	cs, err := loadCurSpace(ctx, s, head, now, lim, cache)
	if err != nil {
		return nil, nil, err
	}
	rep.Pages, rep.Read = len(cs.all), cs.read
	cands := cs.candidates()
	if opts.Model != nil && len(cands) > 0 {
		var st ModelStats
		cands, st = confirm(ctx, opts.Model, cands, cache)
		rep.Model = &st
	}
	prev, err := Findings(ctx, s, head)
	if err != nil {
		return nil, nil, fmt.Errorf("curate: %w (fix or delete the file; lint rewrites it)", err)
	}
	merged, ch := mergeOwned(prev, cands, now, opts.Retention, IsCuration)
	rep.Findings, rep.Change = merged, ch
	plan := &curatePlan{}
	old, _, err := s.ReadFile(ctx, head, FindingsPath)
	if err != nil && !errors.Is(err, wiki.ErrNotFound) {
		return nil, nil, err
	}
	if data := encodeFindings(merged); string(data) != string(old) && (old != nil || len(merged) > 0) {
		plan.data = data
	}
	plan.title, plan.body = curateMessage(rep.Report, now)
	return rep, plan, nil
}

// curateMessage is the batch's title and body: the open curation rows and
// what changed, bounded like lint's.
func curateMessage(r *Report, now time.Time) (string, string) {
	open := 0
	var lines []string
	for _, f := range r.Findings {
		if !IsCuration(f.Check) {
			continue
		}
		switch {
		case f.Open() && f.FirstSeen.Equal(now):
			lines = append(lines, fmt.Sprintf("new: %s %s", f.Check, location(f)))
		case !f.Open() && f.ResolvedAt.Equal(now):
			lines = append(lines, fmt.Sprintf("resolved: %s %s", f.Check, location(f)))
		}
		if f.Open() {
			open++
		}
	}
	const maxLines = 50
	if len(lines) > maxLines {
		n := len(lines) - maxLines
		lines = append(lines[:maxLines], fmt.Sprintf("... and %d more", n))
	}
	title := fmt.Sprintf("curation, %d open finding%s (%d new, %d resolved)", open, plural(open), r.Change.Opened, r.Change.Resolved)
	return title, strings.Join(lines, "\n")
}

// curateLimitsFor resolves the thresholds: options, then kb.yaml, then
// the defaults.
func curateLimitsFor(s *wiki.Space, opts CurateOptions) curateLimits {
	cfg := s.Config().Curate
	lim := curateLimits{MinPages: opts.MinPages, VersionHorizon: opts.VersionHorizon, StaleAfter: opts.StaleAfter}
	if lim.MinPages <= 0 {
		lim.MinPages = cfg.MinPages
	}
	if lim.MinPages <= 0 {
		lim.MinPages = MinConceptPages
	}
	if lim.VersionHorizon <= 0 {
		lim.VersionHorizon = cfg.VersionHorizon
	}
	if lim.VersionHorizon <= 0 {
		lim.VersionHorizon = DefaultVersionHorizon
	}
	if lim.StaleAfter <= 0 {
		lim.StaleAfter = time.Duration(cfg.StaleAfter)
	}
	if lim.StaleAfter <= 0 {
		lim.StaleAfter = DefaultStaleAfter
	}
	return lim
}
