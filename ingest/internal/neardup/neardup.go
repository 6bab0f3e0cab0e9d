// Package neardup measures whether two consults say the same thing in other
// words: the overlap of the passages they draw on in the pages they cite,
// and the overlap of their questions' content words. It reads text only.
package neardup

import (
	"math"
	"strings"

	"github.com/ptwiki/pt/content"
)

// Thresholds of the near-duplicate gate beyond wording (DESIGN.md §7).
const (
	// SameGround is the grounded overlap at or above which two
	// consults that cite a page in common answer the same question. On the
	// tuning half of the labelled consults the same questions asked and
	// answered in other words scored 0.75 and up, and different questions
	// on the same pages 0.47 and below; 0.60 sits in that gap.
	SameGround = 0.60
	// SameQuestion is the overlap of two questions' content words
	// at or above which they are the same question, whatever the answers
	// say. Different questions of the tuning half overlapped 0.36 at most.
	SameQuestion = 0.70
)

// Ground is the text of the pages two consults cite, cut into blocks
// (paragraphs and list items), each the set of its content words.
type Ground []map[string]bool

// GroundOf cuts page bodies into blocks of content words.
func GroundOf(bodies []string) Ground {
	var g Ground
	for _, body := range bodies {
		for _, block := range textBlocks(body) {
			if ws := wordSet(block); len(ws) > 0 {
				g = append(g, ws)
			}
		}
	}
	return g
}

// textBlocks splits Markdown into paragraphs and list items.
func textBlocks(body string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			out = append(out, cur.String())
		}
		cur.Reset()
	}
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
			continue
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			flush()
		}
		cur.WriteString(l)
		cur.WriteByte('\n')
	}
	flush()
	return out
}

// Footprint is where on the ground a text draws from: each content word of
// the text counts for the blocks that hold it, shared equally, so a word
// that appears everywhere places the text nowhere in particular.
func (g Ground) Footprint(text string) map[int]float64 {
	fp := map[int]float64{}
	for w := range wordSet(text) {
		var hits []int
		for i, block := range g {
			if block[w] {
				hits = append(hits, i)
			}
		}
		for _, i := range hits {
			fp[i] += 1 / float64(len(hits))
		}
	}
	return fp
}

// Overlap is the cosine of two footprints on the same ground: 1 when two
// consults draw on the same passages in the same proportions, whatever
// their words.
func Overlap(a, b map[int]float64) float64 {
	var dot, na, nb float64
	for i, x := range a {
		dot += x * b[i]
		na += x * x
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// QuestionOverlap is the Jaccard overlap of two questions' content words.
func QuestionOverlap(a, b string) float64 {
	wa, wb := wordSet(a), wordSet(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	n := 0
	for w := range wa {
		if wb[w] {
			n++
		}
	}
	return float64(n) / float64(len(wa)+len(wb)-n)
}

// wordSet is the set of s's content words.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range content.Words(s) {
		m[w] = true
	}
	return m
}
