package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
	"time"
)

// MergeFindingsFiles combines two replicas' findings.json for pt sync
// (a wiki.MergeFunc): when both ran lint, the local lint batch is rebuilt on
// a remote branch whose findings.json changed since the two parted. The
// file is derived data — a lint run writes it from the pages — so it is
// merged by finding id rather than reported as a conflict.
//
// The merge is three-way, from base, the file both started from. A row
// that only one side changed (added, resolved, reopened, or dropped past
// the retention) is taken from that side; one that both changed and one
// side dropped is kept as the other has it. A row both sides hold changed
// records two sightings of one problem, and is combined so that it states
// only what a run saw:
//   - open on either side: open, since a run saw the problem and only a
//     run over the merged pages may say it is gone; first_seen is the
//     earliest first sighting of the open rows, last_seen the latest
//     sighting unless both fall on one day (UTC), where the earlier stands,
//     as when one replica runs lint twice in a day (Merge); line and
//     message come from the row seen last;
//   - resolved on both: the earlier resolution, with the earliest
//     first_seen.
//
// The result is in lint's row order and encoding, so that it does not
// depend on which replica synced first, and when upstream already says
// everything the local run saw it is upstream's file byte for byte (the
// rebuilt lint batch then adds nothing, and sync drops it). The next lint
// run on the merged branch brings every row up to date with its pages.
func MergeFindingsFiles(base, local, upstream []byte) ([]byte, error) {
	var sides [3]map[string]Finding
	var order []string
	for i, data := range [][]byte{base, local, upstream} {
		rows, err := decodeFindings(data)
		if err != nil {
			return nil, fmt.Errorf("merge %s: %w", FindingsPath, err)
		}
		sides[i] = make(map[string]Finding, len(rows))
		for _, f := range rows {
			if _, dup := sides[i][f.ID]; !dup {
				sides[i][f.ID] = f
				order = append(order, f.ID)
			}
		}
	}
	b, l, u := sides[0], sides[1], sides[2]
	out := []Finding{}
	done := map[string]bool{}
	for _, id := range order {
		if done[id] {
			continue
		}
		done[id] = true
		bf, inB := b[id]
		lf, inL := l[id]
		uf, inU := u[id]
		keep := func(f Finding, ok bool) {
			if ok {
				out = append(out, f)
			}
		}
		switch {
		case sameRow(bf, inB, lf, inL): // the local run left it alone
			keep(uf, inU)
		case sameRow(bf, inB, uf, inU): // only the local run changed it
			keep(lf, inL)
		case !inL || !inU: // both changed it and one dropped it: the other's
			keep(lf, inL)
			keep(uf, inU)
		default:
			out = append(out, combineRows(lf, uf))
		}
	}
	sortFindings(out)
	return encodeFindings(out), nil
}

// decodeFindings reads findings.json as committed; nil data is a space
// never linted.
func decodeFindings(data []byte) ([]Finding, error) {
	if data == nil {
		return nil, nil
	}
	var f findingsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return f.Findings, nil
}

// sameRow reports whether two rows, each possibly absent, say the same.
func sameRow(a Finding, inA bool, b Finding, inB bool) bool {
	if !inA || !inB {
		return inA == inB
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// combineRows is one finding as two runs recorded it (MergeFindingsFiles);
// on a tie, upstream's row u is taken.
func combineRows(l, u Finding) Finding {
	switch {
	case l.Open() && !u.Open():
		return l
	case u.Open() && !l.Open():
		return u
	case l.Open(): // both open
		f := u
		if l.LastSeen.After(u.LastSeen) || l.LastSeen.Equal(u.LastSeen) && rowBefore(l, u) {
			f = l
		}
		f.FirstSeen = earliest(l.FirstSeen, u.FirstSeen)
		f.LastSeen = latest(l.LastSeen, u.LastSeen)
		if sameDay(l.LastSeen, u.LastSeen) {
			f.LastSeen = earliest(l.LastSeen, u.LastSeen)
		}
		return f
	default: // both resolved
		f := u
		if l.ResolvedAt.Before(u.ResolvedAt) || l.ResolvedAt.Equal(u.ResolvedAt) && rowBefore(l, u) {
			f = l
		}
		f.FirstSeen = earliest(l.FirstSeen, u.FirstSeen)
		return f
	}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// rowBefore orders two sightings of one finding made at the same time by
// their encoding, so that which one a merge keeps does not depend on
// which replica synced first.
func rowBefore(a, b Finding) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) < string(jb)
}

var lintTitleRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+ open findings? \(\d+ new, \d+ resolved\)`) })

// RetitleMerged is the title of a lint batch rebuilt by pt sync with a
// merged findings.json (a wiki.RetitleFunc): the open findings it now
// holds, and how many are new or resolved against the remote's file,
// with the rest of its own title (pages marked stale) kept.
func RetitleMerged(title string, merged, upstream []byte) string {
	m, err := decodeFindings(merged)
	if err != nil || !lintTitleRe().MatchString(title) {
		return title
	}
	up, err := decodeFindings(upstream)
	if err != nil {
		return title
	}
	wasOpen := map[string]bool{}
	for _, f := range up {
		if f.Open() {
			wasOpen[f.ID] = true
		}
	}
	open, opened, resolved := 0, 0, 0
	for _, f := range m {
		switch {
		case f.Open():
			open++
			if !wasOpen[f.ID] {
				opened++
			}
		case wasOpen[f.ID]:
			resolved++
		}
	}
	return fmt.Sprintf("%d open finding%s (%d new, %d resolved)", open, plural(open), opened, resolved) + lintTitleRe().ReplaceAllString(title, "")
}
