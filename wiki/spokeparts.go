package wiki

import (
	"fmt"
	"sort"
)

// part is one file of a spoke split into parts, with its members in order.
type part struct {
	path    string
	members []*member
}

// layParts splits a spoke's members (sorted by memberKey) into parts of at
// most limit members, keeping the parts the spoke already has: every part
// keeps the range of titles it started at, so that a page added to or
// removed from a large topic rewrites the one part it falls in (and the
// spoke's list of parts), not every part after it. A part that outgrows
// the limit is split, its later members going to a new part file; a part
// left with less than a quarter of the limit joins a neighbour that has
// room; an empty part is dropped. A spoke without parts yet is cut into
// full parts in order.
func (sp *spoke) layParts(ms []*member, limit int) []part {
	type bound struct{ key, path string }
	var bs []bound
	for _, p := range sp.parts {
		if k, ok := sp.bounds[p]; ok {
			bs = append(bs, bound{k, p})
		}
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].key < bs[j].key })
	used := map[string]bool{}
	next := 1
	newPath := func() string {
		for {
			p := fmt.Sprintf("%s%s/part-%d.md", TopicsDir, sp.slug, next)
			next++
			if !used[p] {
				used[p] = true
				return p
			}
		}
	}

	var parts []part
	if len(bs) == 0 {
		for i := 0; i < len(ms); i += limit {
			parts = append(parts, part{newPath(), ms[i:min(i+limit, len(ms))]})
		}
		return parts
	}
	for _, b := range bs {
		used[b.path] = true
		parts = append(parts, part{path: b.path})
	}
	// Each member goes to the last part whose range starts at or before
	// it; members before the first part's start go to the first part.
	j := 0
	for _, m := range ms {
		k := memberKey(m)
		for j+1 < len(bs) && bs[j+1].key <= k {
			j++
		}
		parts[j].members = append(parts[j].members, m)
	}

	var out []part
	for _, pt := range parts {
		n := len(pt.members)
		if n == 0 {
			continue
		}
		if n <= limit {
			out = append(out, pt)
			continue
		}
		// Split into the fewest parts of at most limit, of near-equal
		// size; the first keeps the file.
		k := (n + limit - 1) / limit
		for i := range k {
			chunk := pt.members[i*n/k : (i+1)*n/k]
			p := pt.path
			if i > 0 {
				p = newPath()
			}
			out = append(out, part{p, chunk})
		}
	}
	// Join small parts to a neighbour with room, the earlier one first.
	for i := 0; i < len(out); i++ {
		if len(out) == 1 || 4*len(out[i].members) >= limit {
			continue
		}
		switch {
		case i > 0 && len(out[i-1].members)+len(out[i].members) <= limit:
			out[i-1].members = append(out[i-1].members, out[i].members...)
		case i+1 < len(out) && len(out[i].members)+len(out[i+1].members) <= limit:
			out[i+1].members = append(out[i].members, out[i+1].members...)
		default:
			continue
		}
		out = append(out[:i], out[i+1:]...)
		i--
	}
	return out
}
