package summary

import (
	"regexp"
	"strings"
	"sync"
)

var (
	decisionSection = guard(`(?i)^(?:the\s+)?(?:decision|decision outcome|outcome|resolution|conclusion|what we decided|we decided|proposal)\b`, func(s string) bool {
		return containsAnyFold(s, "decision", "outcome", "resolution", "conclusion", "decided", "proposal")
	})
	decideWords = guard(`(?i)\b(?:we will|we decided|decided to|decided that|we chose|we choose|chose|adopt|go with|going with|settled on|agreed to|accepted)\b`, func(s string) bool {
		return containsAnyFold(s, "we will", "decided", "chose", "choose", "adopt", "go with", "going with", "settled on", "agreed to", "accepted")
	})
	tldr = guard(`(?i)^(?:tl;?dr|decision|summary|in short|bottom line)\s*[:\-–]\s*\S`, func(s string) bool {
		return hasAnyPrefixFold(s, "tl", "decision", "summary", "in short", "bottom line")
	})
	strongReason = guard(`(?i)^(?:reasons?|why|rationale|because)\b|\bbecause\b|\brejected\b|\bin exchange\b|\bso that\b`, func(s string) bool {
		return hasAnyPrefixFold(s, "reason", "why", "rationale") || containsAnyFold(s, "because", "rejected", "in exchange", "so that")
	})
	reasonWords = guard(`(?i)\bdue to\b|\btoo (?:heavy|costly|expensive|slow|complex|risky)\b|\bcosts?\b|\bdriven by\b|\bmotivat|\breasons?\b`, func(s string) bool {
		return containsAnyFold(s, "due to", "too ", "cost", "driven by", "motivat", "reason")
	})
	reasonPlace = guard(`(?i)^(?:why|reasons?|rationale|motivation|decision drivers|drivers)\b`, func(s string) bool {
		return hasAnyPrefixFold(s, "why", "reason", "rationale", "motivation", "decision drivers", "drivers")
	})
	contextSection = guard(`(?i)^(?:context|background|problem|motivation|why)\b`, func(s string) bool {
		return hasAnyPrefixFold(s, "context", "background", "problem", "motivation", "why")
	})
	impactSection = guard(`(?i)^(?:summary|impact|customer impact|user impact|what happened|overview|tl;?dr|description|incident summary)\b`, func(s string) bool {
		return hasAnyPrefixFold(s, "summary", "impact", "customer impact", "user impact", "what happened", "overview", "tl", "description", "incident summary")
	})
	causeSection = guard(`(?i)\broot causes?\b|^causes?\b|^why\b|^contributing`, func(s string) bool {
		return containsFold(s, "root cause") || hasAnyPrefixFold(s, "cause", "why", "contributing")
	})
	goalSection = guard(`(?i)^(?:goal|purpose|overview|when to use|about|summary|introduction|context|what this|why)\b`, func(s string) bool {
		return hasAnyPrefixFold(s, "goal", "purpose", "overview", "when to use", "about", "summary", "introduction", "context", "what this", "why")
	})
	concludeWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:agreed|decided|decision|going with|go with|let'?s (?:go|do|use|keep|revisit|ship|move)|granted|approved|conclusion|settled|final(?:ly)?|ship it|plan is|we'll|we will|moving forward|consensus|ok,? so|to summari[sz]e|wrap(?:ping)? up|the plan)\b|\bso:`)
	})
	causeWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bbecause\b|\bturns out\b|\bculprit\b|\bcaused?\b|\broot cause\b|\bflagged\b|\bthe reason\b`)
	})
	proposeWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:proposal|propose|suggest|how about|what if|plan:|option|instead)\b`)
	})
	ownWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bI'?ll\b|\bI will\b|\bon it\b`) })
)

// lead returns what a reader of this kind of source needs first, in the
// order they need it: the decision and its reason; the decisions and
// action items of a meeting; a postmortem's impact, cause and follow-ups;
// a procedure's goal; the conclusion a chat reached.
func lead(kind, title string, blocks []block, sents [][]string, decisions, actions []string) []string {
	var out []string
	switch kind {
	case kindDecision:
		dec := markedSentences(blocks, sents, tldr, 1, nil)
		if len(dec) == 0 {
			dec = sectionSentences(blocks, sents, decisionSection, 2)
		}
		if len(dec) == 0 {
			dec = markedSentences(blocks, sents, decideWords, 2, nil)
		}
		out = append(out, dec...)
		out = append(out, reasons(blocks, sents, dec)...)
	case kindMeeting:
		out = append(out, first(decisions, 3)...)
		out = append(out, first(actions, 4)...)
	case kindPostmortem:
		out = append(out, sectionSentences(blocks, sents, impactSection, 2)...)
		out = append(out, sectionSentences(blocks, sents, causeSection, 2)...)
		out = append(out, first(actions, 4)...)
	case kindProcedure:
		goal := sectionSentences(blocks, sents, goalSection, 2)
		if len(goal) == 0 {
			goal = opening(title, blocks, sents, 2)
		}
		out = append(out, goal...)
	case kindChat:
		out = conclusion(blocks, 5)
	default:
		out = append(out, first(decisions, 2)...)
	}
	return dedupe(out)
}

// reasons returns up to two sentences that give a decision's reason, not
// in skip: those said to be one (a "Why" section or list, "because",
// "rejected"), else those that speak of cost or motive, else the first
// sentence of the context.
func reasons(blocks []block, sents [][]string, skip []string) []string {
	var strong []string
	intro := ""
	for i, b := range blocks {
		if b.kind == headingBlock {
			intro = ""
			continue
		}
		place := reasonPlace.MatchString(b.section) || b.kind == itemBlock && reasonPlace.MatchString(intro)
		if b.kind == paraBlock {
			intro = b.text
		}
		for _, s := range sents[i] {
			if len(strong) < 2 && (place || strongReason.MatchString(s)) && !strings.HasSuffix(s, ":") &&
				informative(s, len(strings.Fields(s))) && !containsFoldAll(skip, s) {
				strong = append(strong, s)
			}
		}
	}
	if len(strong) > 0 {
		return strong
	}
	if r := markedSentences(blocks, sents, reasonWords, 2, skip); len(r) > 0 {
		return r
	}
	return sectionSentences(blocks, sents, contextSection, 1)
}

func first(xs []string, n int) []string { return xs[:min(n, len(xs))] }

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if k := strings.ToLower(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// sectionSentences returns the first n informative sentences of the
// sections whose heading matches re.
func sectionSentences(blocks []block, sents [][]string, re pattern, n int) []string {
	var out []string
	for i, b := range blocks {
		if b.kind == headingBlock || !re.MatchString(b.section) {
			continue
		}
		for _, s := range sents[i] {
			if len(out) == n {
				return out
			}
			if informative(s, len(strings.Fields(s))) {
				out = append(out, s)
			}
		}
	}
	return out
}

// markedSentences returns the first n informative sentences that match re
// and are not in skip.
func markedSentences(blocks []block, sents [][]string, re pattern, n int, skip []string) []string {
	var out []string
	for i, b := range blocks {
		if b.kind == headingBlock {
			continue
		}
		for _, s := range sents[i] {
			if len(out) == n {
				return out
			}
			if re.MatchString(s) && !strings.HasSuffix(s, ":") && informative(s, len(strings.Fields(s))) && !containsFoldAll(skip, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsFoldAll(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// opening returns the first n informative sentences of the prose before
// the first heading below the title: where a procedure says what it is for.
func opening(title string, blocks []block, sents [][]string, n int) []string {
	var out []string
	for i, b := range blocks {
		if b.kind == headingBlock {
			if b.level == 1 || strings.EqualFold(b.text, title) {
				continue
			}
			break
		}
		for _, s := range sents[i] {
			if len(out) < n && informative(s, len(strings.Fields(s))) && !strings.HasSuffix(s, ":") {
				out = append(out, s)
			}
		}
	}
	return out
}

// conclusion picks up to n messages of a chat excerpt, in their order: the
// ones that conclude (agreed, going with, granted), propose, or take an
// action, and the opening question; short acknowledgements never.
func conclusion(blocks []block, n int) []string {
	var msgs []string
	for _, b := range blocks {
		if b.kind != paraBlock {
			continue
		}
		for _, l := range b.lines {
			if chatLine.MatchString(l) {
				msgs = append(msgs, l)
			} else if len(msgs) > 0 && !strings.Contains(l, ":") {
				msgs[len(msgs)-1] += " " + l // a message over several lines
			}
		}
	}
	type scored struct {
		i     int
		score float64
	}
	var ss []scored
	for i, m := range msgs {
		text := m[strings.IndexByte(m, ':')+1:]
		if len(strings.Fields(text)) < 4 {
			continue
		}
		score := 0.5 * float64(i) / float64(len(msgs))
		if concludeWords().MatchString(text) {
			score += 3
		}
		if proposeWords().MatchString(text) {
			score += 2
		}
		if ownWords().MatchString(text) {
			score += 1
		}
		if causeWords().MatchString(text) {
			score += 1
		}
		if i == 0 {
			score += 1.5
		}
		ss = append(ss, scored{i, score})
	}
	// the n best, kept in the order they were said
	for len(ss) > n {
		worst := 0
		for j := range ss {
			if ss[j].score < ss[worst].score {
				worst = j
			}
		}
		ss = append(ss[:worst], ss[worst+1:]...)
	}
	// the conclusion leads; the rest keep their order
	best := 0
	for j := range ss {
		if ss[j].score > ss[best].score {
			best = j
		}
	}
	var out []string
	if len(ss) > 0 {
		out = append(out, msgs[ss[best].i])
	}
	for j, s := range ss {
		if j != best {
			out = append(out, msgs[s.i])
		}
	}
	return out
}
