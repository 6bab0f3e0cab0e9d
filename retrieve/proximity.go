package retrieve

import "math"

// proximity scores how closely a section holds the question's terms
// together: for each pair of distinct question terms, the inverse of the
// smallest distance between them in the section, weighted by both terms'
// weights, summed and normalised by the total pair weight.
func proximity(toks []string, w map[string]float64) float64 {
	last := map[string]int{}
	best := map[[2]string]int{}
	for i, t := range toks {
		if _, ok := w[t]; !ok {
			continue
		}
		for u, j := range last {
			if u == t {
				continue
			}
			k := [2]string{min(t, u), max(t, u)}
			if d, ok := best[k]; !ok || i-j < d {
				best[k] = i - j
			}
		}
		last[t] = i
	}
	var s, tot float64
	terms := make([]string, 0, len(w))
	for t := range w {
		terms = append(terms, t)
	}
	for a := 0; a < len(terms); a++ {
		for b := a + 1; b < len(terms); b++ {
			pw := w[terms[a]] * w[terms[b]]
			tot += pw
			k := [2]string{min(terms[a], terms[b]), max(terms[a], terms[b])}
			if d, ok := best[k]; ok {
				s += pw / math.Max(1, float64(d))
			}
		}
	}
	if tot == 0 {
		return 0
	}
	return s / tot
}
