package retrieve

import (
	"maps"
	"math"
	"slices"
)

// positions maps each term of a text to where it occurs, in order: what
// proximity reads, kept per section so that a query costs the occurrences
// of its own terms rather than a walk over every section's text.
type positions map[string][]int32

func positionsOf(toks []string) positions {
	pos := positions{}
	for i, t := range toks {
		pos[t] = append(pos[t], int32(i))
	}
	return pos
}

// proximity scores how closely a section holds the question's terms
// together: for each pair of distinct question terms, the inverse of the
// smallest distance between them in the section, weighted by both terms'
// weights, summed and normalised by the total pair weight.
func proximity(pos positions, w map[string]float64) float64 {
	terms := slices.Sorted(maps.Keys(w)) // a fixed order of additions keeps the score exact
	var s, tot float64
	for a := 0; a < len(terms); a++ {
		for b := a + 1; b < len(terms); b++ {
			pw := w[terms[a]] * w[terms[b]]
			tot += pw
			if d := minDistance(pos[terms[a]], pos[terms[b]]); d > 0 {
				s += pw / math.Max(1, float64(d))
			}
		}
	}
	if tot == 0 {
		return 0
	}
	return s / tot
}

// minDistance is the smallest gap between a position in x and one in y
// (both ascending), 0 when either is empty.
func minDistance(x, y []int32) int32 {
	if len(x) == 0 || len(y) == 0 {
		return 0
	}
	best := int32(math.MaxInt32)
	for i, j := 0, 0; i < len(x) && j < len(y); {
		d := x[i] - y[j]
		if d < 0 {
			d = -d
			i++
		} else {
			j++
		}
		best = min(best, d)
	}
	return max(best, 1)
}
