package retrieve

import (
	"context"
	"slices"
	"strings"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// baseForms stands in, for a question word the space never uses, the
// adjective it compares when the space uses that: "oldest" for "old",
// "newer" for "new", "easiest" for "easy". The English stemmer leaves
// comparatives and superlatives alone, so "What is the oldest kernel Go
// supports?" would count "oldest" as a subject the space lacks, while the
// page says "old kernels". Only the sufficiency gate reads the result: a
// word the space never uses weighs most there, and refuses.
func baseForms(ctx context.Context, ix *index.Index, question string, terms []string, st index.TermStats) ([]string, index.TermStats, error) {
	cands := map[string][]string{} // term -> candidate base terms
	var all []string
	for _, t := range terms {
		if st.DF[t] > 0 {
			continue
		}
		for _, b := range comparedForms(strings.ToLower(questionWord(question, t))) {
			if bt := index.Terms(b); len(bt) == 1 && bt[0] != t && !slices.Contains(cands[t], bt[0]) {
				cands[t] = append(cands[t], bt[0])
				all = append(all, bt[0])
			}
		}
	}
	if len(all) == 0 {
		return terms, st, nil
	}
	bst, err := ix.Stats(ctx, all)
	if err != nil {
		return nil, st, err
	}
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		for _, b := range cands[t] {
			if bst.DF[b] > 0 {
				st.DF[b] = bst.DF[b]
				t = b
				break
			}
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, st, nil
}

// comparedForms are the adjectives w may be the comparative or superlative
// of, most likely first: old (oldest), large (largest), big (biggest),
// easy (easiest).
func comparedForms(w string) []string {
	var base string
	switch {
	case strings.HasSuffix(w, "est") && len(w) >= 6:
		base = w[:len(w)-3]
	case strings.HasSuffix(w, "er") && len(w) >= 5:
		base = w[:len(w)-2]
	default:
		return nil
	}
	out := []string{base, base + "e"}
	if n := len(base); n >= 2 && base[n-1] == base[n-2] {
		out = append(out, base[:n-1])
	}
	if strings.HasSuffix(base, "i") {
		out = append(out, base[:len(base)-1]+"y")
	}
	return out
}
