package secret

import "strings"

// hintIndex finds, in one pass over a lowercased line, the rules whose
// hints the line holds: each rule is then tried only on lines that may
// match it. Trying some sixty rules' hints one strings.Contains at a time
// cost more than the expressions themselves.
type hintIndex struct {
	// byFirst lists the hints by their first byte; pairs says which
	// first two bytes any hint starts with, to skip most positions at once.
	byFirst [256][]hintRef
	pairs   [256][4]uint64
	always  ruleSet // rules without hints
}

type hintRef struct {
	hint string
	rule int
}

// ruleSet is a set of rule indexes.
type ruleSet [2]uint64

const maxRules = 128

func (s *ruleSet) add(i int)              { s[i/64] |= 1 << (i % 64) }
func (s *ruleSet) has(i int) bool         { return s[i/64]&(1<<(i%64)) != 0 }
func (ix *hintIndex) pair(a, b byte) bool { return ix.pairs[a][b/64]&(1<<(b%64)) != 0 }

func newHintIndex(rs []rule) *hintIndex {
	if len(rs) > maxRules {
		panic("secret: more rules than a ruleSet holds")
	}
	ix := &hintIndex{}
	for i, r := range rs {
		if r.hints == nil {
			ix.always.add(i)
		}
		for _, h := range r.hints {
			if len(h) < 2 || strings.ToLower(h) != h {
				panic("secret: a hint is lowercase and at least two bytes: " + h)
			}
			ix.byFirst[h[0]] = append(ix.byFirst[h[0]], hintRef{h, i})
			ix.pairs[h[0]][h[1]/64] |= 1 << (h[1] % 64)
		}
	}
	return ix
}

// match returns the rules whose hints occur in lower.
func (ix *hintIndex) match(lower string) ruleSet {
	set := ix.always
	for i := 0; i+1 < len(lower); i++ {
		if !ix.pair(lower[i], lower[i+1]) {
			continue
		}
		for _, ref := range ix.byFirst[lower[i]] {
			if !set.has(ref.rule) && strings.HasPrefix(lower[i:], ref.hint) {
				set.add(ref.rule)
			}
		}
	}
	return set
}
