package retrieve

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
)

// feedbackTerms expands a question with the words its best sections share
// (pseudo-relevance feedback, RM3-like): a newcomer's question often lacks
// the space's own word for its subject, and the sections that match its
// other words tend to use it. A term qualifies when at least two of the
// first Ranking.FeedbackDocs pages' best sections hold it; terms are ranked by how
// many hold it times their rarity, and the question's own terms are left
// out.
func (e *Engine) feedbackTerms(ctx context.Context, ix *index.Index, question string, secs []index.Hit) ([]string, error) {
	own := map[string]bool{}
	for _, t := range index.Terms(question) {
		own[t] = true
	}
	count := map[string]int{}
	seen := map[string]bool{}
	n := 0
	for _, h := range secs {
		if n == e.ranking.FeedbackDocs {
			break
		}
		k := canonical(h.Path)
		if seen[k] || h.PageKind == content.KindSummary {
			continue
		}
		seen[k] = true
		n++
		// A section's text is fixed by its id and the page's blob.
		words := e.cache.cachedTermSet(h.Revision, "fb\x00"+h.Revision+"\x00"+h.ID, func() string {
			return h.Title + "\n" + h.Heading + "\n" + clip(h.Body, 16<<10)
		})
		for t := range words {
			if !own[t] && len(t) > 2 && !isNumber(t) {
				count[t]++
			}
		}
	}
	var cands []string
	for t, c := range count {
		if c >= 2 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	st, err := ix.Stats(ctx, cands)
	if err != nil {
		return nil, err
	}
	score := map[string]float64{}
	for _, t := range cands {
		score[t] = float64(count[t]) * idf(max(st.DF[t], 1), st.N)
	}
	slices.SortFunc(cands, func(a, b string) int { return cmp.Or(cmp.Compare(score[b], score[a]), strings.Compare(a, b)) })
	return cands[:min(len(cands), e.ranking.FeedbackTerms)], nil
}

func isNumber(t string) bool {
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
