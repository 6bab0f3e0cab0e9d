package lint

import (
	"context"
	"sort"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// result is what the checks found at one revision.
type result struct {
	findings []Finding
	// derivedDrift lists the pages whose derived_from drifted: the
	// candidates for status: stale.
	derivedDrift []string
	snap         *snapshot
}

// Check runs every check over the pages of s at rev and returns the
// problems found as open rows first and last seen at now, sorted by page
// and line. It reads and writes nothing else: Run adds the lifecycle.
func Check(ctx context.Context, s *wiki.Space, rev wiki.Rev, now time.Time) ([]Finding, error) {
	r, err := check(ctx, s, rev, now)
	if err != nil {
		return nil, err
	}
	return r.findings, nil
}

func check(ctx context.Context, s *wiki.Space, rev wiki.Rev, now time.Time) (*result, error) {
	snap, err := load(ctx, s, rev, openFactStore(factsPath(s.StateDir())))
	if err != nil {
		return nil, err
	}
	r := snap.check(now)
	prev, err := Findings(ctx, s, rev)
	if err != nil {
		return nil, err
	}
	r.withGaps(s, prev, now)
	return r, nil
}

// check runs every check over the snapshot.
func (snap *snapshot) check(now time.Time) *result {
	now = now.UTC().Truncate(time.Second)
	r := &result{snap: snap}
	seen := map[string]bool{}
	add := func(check, path string, line int, target, msg string) {
		id := FindingID(check, path, target)
		if seen[id] {
			return // the same problem twice on a page: one row, at its first line
		}
		seen[id] = true
		rule, _ := ruleOf(check)
		r.findings = append(r.findings, Finding{ID: id, Check: check, Severity: rule.Severity, Path: path, Line: line,
			Target: target, Message: msg, FirstSeen: now, LastSeen: now, Status: StatusOpen})
	}
	// Each link is resolved once, for the three checks that follow it.
	targets := make([][]linkTarget, len(snap.pages))
	for i, p := range snap.pages {
		targets[i] = snap.linkTargets(p)
		secrets(p, add)
		if p.Invalid != nil {
			add(CheckFrontmatter, p.path, max(p.Invalid.Line, 1), "", p.Invalid.Message)
			continue
		}
		snap.crossrefs(p, targets[i], add)
		snap.retiredCitations(p, targets[i], add)
		if snap.drift(p, add) {
			r.derivedDrift = append(r.derivedDrift, p.path)
		}
		expired(p, now, add)
	}
	snap.orphans(targets, add)
	sortFindings(r.findings)
	return r
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		return a.ID < b.ID
	})
}
