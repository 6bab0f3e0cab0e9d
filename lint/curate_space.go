package lint

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// curPage is one page as curation sees it: its path, blob and facts.
type curPage struct {
	path   string
	blob   string
	f      *pageFacts
	family string // the dated family it belongs to, "" for none
	active bool
}

// claimsCount reports whether a page's words count as the space's claims:
// readable, active, and written rather than generated (not the hub, a
// spoke or the log), and not a source's summary, which restates its
// source on purpose: counted, every source and its summary would be a
// merge candidate, and a phrase or claim would count twice.
func (p *curPage) claimsCount() bool {
	if p.f.Unread || !p.active || wiki.IsIndexPage(p.path) {
		return false
	}
	switch p.f.Kind {
	case content.KindHub, content.KindTopic, content.KindLog, content.KindSummary:
		return false
	}
	return true
}

// curSpace is the space at one revision as the curation rules see it.
type curSpace struct {
	now    time.Time
	opts   curateLimits
	all    []*curPage // every page, generated ones too (their names count)
	pages  []*curPage // the pages the rules read
	byPath map[string]*curPage
	newest map[string]string // product → newest version the space names
	read   int               // pages read this run (not in the cache)
}

// curateLimits are the rules' thresholds, resolved from options, kb.yaml
// and the defaults.
type curateLimits struct {
	MinPages       int
	VersionHorizon int
	StaleAfter     time.Duration
}

// loadCurSpace lists the pages of s at rev and gets each one's facts from
// the cache by blob, reading and extracting only the others (on all
// cores; reads are serialized by the repository anyway).
func loadCurSpace(ctx context.Context, s *wiki.Space, rev wiki.Rev, now time.Time, lim curateLimits, cache *factsCache) (*curSpace, error) {
	cs := &curSpace{now: now, opts: lim, byPath: map[string]*curPage{}, newest: map[string]string{}}
	if rev == "" {
		return cs, nil
	}
	es, err := s.List(ctx, rev, "")
	if err != nil {
		return nil, err
	}
	var todo []*curPage
	for _, e := range es {
		if !isPage(e.Path) {
			continue
		}
		p := &curPage{path: e.Path, blob: e.Blob, f: cache.get(e.Blob)}
		if p.f == nil {
			todo = append(todo, p)
		}
		cs.all = append(cs.all, p)
		cs.byPath[p.path] = p
	}
	if err := extractAll(ctx, s, todo); err != nil {
		return nil, err
	}
	cs.read = len(todo)
	families := map[string]int{}
	for _, p := range cs.all {
		cache.put(p.blob, p.f)
		if fam, ok := datedName(p.path); ok {
			families[fam]++
		}
	}
	for _, p := range cs.all {
		m := content.Meta{Status: p.f.Status, Expires: p.f.Expires}
		p.active = m.Active(now)
		if fam, ok := datedName(p.path); ok && families[fam] > 1 {
			p.family = fam
		}
		if !wiki.IsIndexPage(p.path) {
			cs.pages = append(cs.pages, p)
		}
		if !p.claimsCount() {
			continue
		}
		for _, v := range p.f.Versions {
			product, version, _ := strings.Cut(v, " ")
			cs.noteVersion(product, version)
		}
	}
	return cs, nil
}

// noteVersion keeps the newest version of each product and major version
// the space names (Go 2 does not make every Go 1.x old).
func (cs *curSpace) noteVersion(product, v string) {
	k := versionKey(product, v)
	if newerVersion(v, cs.newest[k]) {
		cs.newest[k] = v
	}
}

// extractAll reads the pages one by one and extracts their facts on all
// cores.
func extractAll(ctx context.Context, s *wiki.Space, pages []*curPage) error {
	raw := make([][]byte, len(pages))
	for i, p := range pages {
		data, err := s.ReadBlob(ctx, p.blob)
		if err != nil {
			return fmt.Errorf("curate %s: %w", p.path, err)
		}
		raw[i] = data
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(pages)/32))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pages) || ctx.Err() != nil {
					return
				}
				pages[i].f = extractFacts(pages[i].path, raw[i])
				raw[i] = nil
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// candidates runs every curation rule and returns the findings, each with
// its stable id and its rule's severity, open and first seen now.
func (cs *curSpace) candidates() []Finding {
	var out []Finding
	seen := map[string]bool{}
	emit := func(f Finding) {
		f.ID = FindingID(f.Check, f.Path, f.Target)
		if seen[f.ID] {
			return
		}
		seen[f.ID] = true
		rule, _ := ruleOf(f.Check)
		f.Severity, f.Status, f.FirstSeen, f.LastSeen = rule.Severity, StatusOpen, cs.now, cs.now
		out = append(out, f)
	}
	cs.contradictions(emit)
	cs.staleClaims(emit)
	cs.missingConcepts(emit)
	cs.mergeCandidates(emit)
	cs.unpromotedLessons(emit)
	sortFindings(out)
	return out
}
