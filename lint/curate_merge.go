package lint

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
)

// shingleWords is the length of the word runs compared between pages, and
// shingleSample keeps one run in that many (by hash), so that a page's
// fingerprint stays small and two copies keep the same sample.
const (
	shingleWords  = 5
	shingleSample = 4
	minShingles   = 8
)

// shingles returns the sampled hashes of a page's 5-word runs.
func shingles(sents []sentence) []uint64 {
	var ws []string
	for _, s := range sents {
		ws = append(ws, words(s.Text)...)
	}
	var out []uint64
	for i := 0; i+shingleWords <= len(ws); i++ {
		h := fnv.New64a()
		for _, w := range ws[i : i+shingleWords] {
			h.Write([]byte(w))
			h.Write([]byte{0})
		}
		if v := h.Sum64(); v%shingleSample == 0 {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// MergeSimilarity is the cosine similarity (of the pages' content words,
// weighted by rarity) above which two pages are reported as saying the
// same thing.
const MergeSimilarity = 0.6

// minMergeWords: pages shorter than this say too little to be compared.
const minMergeWords = 25

// commonWordShare: a word on more than this share of the pages weighs
// nothing in the comparison and is not used to find candidates.
const commonWordShare = 0.1

// mergeCandidates reports pairs of active pages whose words are mostly the
// same (reworded or reordered copies). Pages of one dated family (their
// names differ only in digits: yearly reports, meeting notes) are meant to
// repeat and are not paired.
func (cs *curSpace) mergeCandidates(emit func(Finding)) {
	var pages []*curPage
	for _, p := range cs.pages {
		if p.claimsCount() && p.f.Words >= minMergeWords {
			pages = append(pages, p)
		}
	}
	df := map[string]int{}
	for _, p := range pages {
		for _, wc := range p.f.Bag {
			df[wc.W]++
		}
	}
	maxDF := max(10, int(commonWordShare*float64(len(pages))))
	idf := func(w string) float64 { return math.Log(float64(len(pages)+1) / float64(df[w])) }
	norms := make([]float64, len(pages))
	post := map[string][]posting{}
	for i, p := range pages {
		for _, wc := range p.f.Bag {
			if df[wc.W] > maxDF {
				continue
			}
			x := (1 + math.Log(float64(wc.N))) * idf(wc.W)
			norms[i] += x * x
			post[wc.W] = append(post[wc.W], posting{i, x})
		}
	}
	for i := range pages {
		norms[i] = math.Sqrt(norms[i])
	}
	for i := range pages {
		dot := map[int]float64{}
		for _, wc := range pages[i].f.Bag {
			ps := post[wc.W]
			if len(ps) < 2 || df[wc.W] > maxDF {
				continue
			}
			xi := (1 + math.Log(float64(wc.N))) * idf(wc.W)
			for _, p := range ps {
				if p.page > i {
					dot[p.page] += xi * p.x
				}
			}
		}
		js := make([]int, 0, len(dot))
		for j := range dot {
			js = append(js, j)
		}
		sort.Ints(js)
		for _, j := range js {
			cos := dot[j] / (norms[i]*norms[j] + 1e-9)
			a, b := pages[i], pages[j]
			if cos < MergeSimilarity || sameSeries(a, b) || sameTemplate(a, b) {
				continue
			}
			if a.path > b.path {
				a, b = b, a
			}
			emit(Finding{Check: CheckMerge, Path: a.path, Target: b.path,
				Message:  fmt.Sprintf("says mostly what %s says (similarity %.2f): merge them, or supersede one by the other", b.path, cos),
				Evidence: []Evidence{{Path: a.path, Revision: a.blob}, {Path: b.path, Revision: b.blob}}})
		}
	}
}

// posting is a page's weight for one word.
type posting struct {
	page int
	x    float64
}

// sameSeries reports whether two pages belong to dated series that are
// meant to repeat: one family, or both named for their date (each group's
// annual-report-2024.md), or one a dated copy of a template.
func sameSeries(a, b *curPage) bool {
	if a.family != "" && a.family == b.family {
		return true
	}
	return datedPath(a.path) || datedPath(b.path)
}
