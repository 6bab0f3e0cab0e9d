package sketch

// DefaultCopy is the share of an answer's word pairs found verbatim in the
// pages it draws on at or above which the answer is a copy of them (an
// echo). On the tuning half of the labelled consults
// (ingest/testdata/consults-tune.jsonl) every copy scored 1.00 and every answer in
// its own words 0.53 or below, syntheses of one long page and of several
// pages included; 0.70 sits in that gap, a little below its middle so that
// a copy with a few words changed is still a copy.
const DefaultCopy = 0.70

// Shingles is the exact set of a text's word 2-shingles, normalized as
// Fingerprint normalizes.
type Shingles map[uint64]struct{}

// ShinglesOf returns the shingles of text.
func ShinglesOf(text string) Shingles { return shingleSet(normalizeWords(text)) }

// CopiedShare is the share of answer's word pairs that appear verbatim in
// page: 1 for a pasted page or section, low for an answer in its own
// words, however long the page. Unlike Containment it is exact, so it
// stays right when the page is a hundred times longer than the answer.
func CopiedShare(answer, page string) float64 {
	return ShinglesOf(answer).Share(ShinglesOf(page))
}

// Share is the share of s found in any of pages.
func (s Shingles) Share(pages ...Shingles) float64 {
	if len(s) == 0 {
		return 0
	}
	n := 0
	for x := range s {
		for _, p := range pages {
			if _, ok := p[x]; ok {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(s))
}
