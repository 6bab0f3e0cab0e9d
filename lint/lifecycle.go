package lint

import (
	"time"
)

// DefaultRetention is how long a resolved finding stays in findings.json,
// so that a retrospective or a person can still see what was fixed.
const DefaultRetention = 30 * 24 * time.Hour

// Change counts what a run changed in the findings.
type Change struct {
	Opened   int `json:"opened"`   // new, or seen again after being resolved
	Resolved int `json:"resolved"` // open before, not seen now
	Dropped  int `json:"dropped"`  // resolved longer ago than the retention
}

// Merge carries the previous rows into a run's findings: a finding seen
// before keeps its first_seen; its last_seen moves only when the day (UTC)
// changed, so that two runs on one day write the same rows; a finding no
// longer seen becomes resolved, and a resolved one is dropped once it has
// been resolved for longer than retention (DefaultRetention when zero). A
// finding that comes back after being resolved is open again and first
// seen now.
func Merge(prev, cur []Finding, now time.Time, retention time.Duration) ([]Finding, Change) {
	if retention <= 0 {
		retention = DefaultRetention
	}
	now = now.UTC().Truncate(time.Second)
	var ch Change
	before := make(map[string]Finding, len(prev))
	for _, f := range prev {
		before[f.ID] = f
	}
	out := make([]Finding, 0, len(cur)+len(prev))
	seen := make(map[string]bool, len(cur))
	for _, f := range cur {
		seen[f.ID] = true
		f.Status, f.ResolvedAt = StatusOpen, time.Time{}
		p, ok := before[f.ID]
		if ok && p.Open() {
			f.FirstSeen = p.FirstSeen
			f.LastSeen = now
			if sameDay(p.LastSeen, now) {
				f.LastSeen = p.LastSeen
			}
		} else {
			f.FirstSeen, f.LastSeen = now, now
			ch.Opened++
		}
		out = append(out, f)
	}
	for _, p := range prev {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true // a row listed twice by hand counts once
		switch {
		case p.Open():
			p.Status, p.ResolvedAt = StatusResolved, now
			ch.Resolved++
		case now.Sub(p.ResolvedAt) > retention:
			ch.Dropped++
			continue
		}
		out = append(out, p)
	}
	sortFindings(out)
	return out, ch
}

func sameDay(a, b time.Time) bool {
	ya, ma, da := a.UTC().Date()
	yb, mb, db := b.UTC().Date()
	return ya == yb && ma == mb && da == db
}
