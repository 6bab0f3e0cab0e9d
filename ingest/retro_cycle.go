package ingest

import (
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// What belongs to a cycle is decided by its commits, not by clocks: commit
// times have one-second resolution and come from --now, so a window of
// times drops what happened in the second a cycle was closed and whatever
// a --now placed before the previous close.

// findingsMoved counts the lint findings that the cycle's lint runs opened
// and resolved, from findings.json at the cycle's start (before) and end
// (after). A run carries an open row's first_seen forward and sets it anew
// when a finding appears or comes back, and sets resolved_at when it goes:
// a row whose first_seen or resolved_at differs between the two ends was
// opened or resolved in the cycle (a finding opened and fixed inside the
// cycle counts in both). A row open at the start and gone at the end was
// resolved, then dropped after its retention.
func findingsMoved(before, after []lint.Finding) (opened, resolved int) {
	start := make(map[string]lint.Finding, len(before))
	for _, f := range before {
		start[f.ID] = f
	}
	present := make(map[string]bool, len(after))
	for _, f := range after {
		if present[f.ID] {
			continue // a row listed twice by hand counts once
		}
		present[f.ID] = true
		b, ok := start[f.ID]
		reopened := !ok || !f.FirstSeen.Equal(b.FirstSeen)
		if reopened {
			opened++
		}
		switch {
		case !f.Open() && (!ok || !f.ResolvedAt.Equal(b.ResolvedAt)):
			resolved++
		case f.Open() && ok && b.Open() && reopened:
			resolved++ // resolved in the cycle, then seen again
		}
	}
	for id, b := range start {
		if b.Open() && !present[id] {
			resolved++
		}
	}
	return opened, resolved
}

// consultWindow says which consults of the local log belong to a cycle.
// A consult records the head it was asked at; it belongs to the cycle when
// that head is one of the cycle's: the commit the cycle starts after and
// the cycle's commits but its last, which counts too when the cycle runs to
// now (Until unset). Records without a head this history knows (written
// by an older pt, or asked at a commit since rewritten) fall back to their
// time within (from, to].
type consultWindow struct {
	heads    map[string]bool // heads whose consults are in the cycle
	known    map[string]bool // every commit of the history up to until
	from, to time.Time
}

func newConsultWindow(hist, cycle []wiki.Commit, since wiki.Rev, toNow bool, from, to time.Time) consultWindow {
	w := consultWindow{heads: map[string]bool{}, known: map[string]bool{}, from: from, to: to}
	for _, c := range hist {
		w.known[c.Hash] = true
	}
	// The cycle's heads, oldest first: since, then its commits up to until.
	var heads []string
	if since != "" {
		heads = append(heads, string(since))
	}
	for i := len(cycle) - 1; i >= 0; i-- {
		heads = append(heads, cycle[i].Hash)
	}
	if !toNow && len(heads) > 0 {
		heads = heads[:len(heads)-1] // consults asked at until came after the cycle
	}
	for _, h := range heads {
		w.heads[h] = true
	}
	return w
}

func (w consultWindow) holds(r ConsultRecord) bool {
	if r.Head != "" && w.known[r.Head] {
		return w.heads[r.Head]
	}
	return (w.from.IsZero() || r.Time.After(w.from)) && !r.Time.After(w.to)
}

// skippedConsults counts the skipped consults of the local consult log
// that belong to the cycle, by gate. A missing log means none were
// recorded here.
func skippedConsults(s *wiki.Space, w consultWindow) (map[string]int, error) {
	out := map[string]int{}
	rs, err := ReadConsultLog(s, time.Time{})
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Verdict == VerdictSkipped && w.holds(r) {
			out[r.Gate]++
		}
	}
	return out, nil
}
