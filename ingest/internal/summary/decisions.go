package summary

import (
	"regexp"
	"strings"
	"sync"
)

var (
	decisionMarker = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:decision|resolution|resolved|agreed|decided)(?:\s+[^:.!?]{0,40}?)?\s*[:\-–]\s+`)
	})
	decisionWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:we|team|group|everyone|all)\s+(?:\w+\s+)?(?:decided|agreed)\b|^(?:decided|agreed)\b|\bdecision was\b|\bwas decided\b`)
	})
	actionMarker = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:(?i:action items?|action)\s*[:\-–]|AI\s*(?:\([^)]*\))?\s*:|TODO\b\s*(?:\([^)]*\))?\s*:?)\s*`)
	})
	actionWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bTODO\b|@[\w.\-]+\s+(?:will|to)\s+\w|(?i:\baction item\b)`)
	})
	decisionHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:key\s+)?(?:decisions?|resolutions?|outcomes?|agreed|agreements?)(?:\s+made)?$`)
	})
	actionHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:action items?|actions|next steps|follow[- ]?ups?|follow[- ]up actions|to-?dos?|tasks|remediation|remediation items|corrective actions|owners)$`)
	})
	decisionIntro = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:agreed|decided|decisions?|outcomes?|resolutions?|conclusions?)\b[^:]*:$`)
	})
	actionIntro = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:action items?|actions|next steps|follow[- ]?ups?|to-?dos?|owners)\b[^:]*:$`)
	})
	ownerSign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:[—–(]|\s-)\s*\p{Lu}[\p{L}'-]+(?:\s+owns\b|\s*\)|\s*,|\s*$)|\b(?i:owner|owners|assignee)\s*:|@[\w.\-]+|\b(?:by|before|due)\s+(?:\p{Lu}\w+|\d)`)
	})
	actorVerb = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\p{Lu}[\p{L}'-]+)(?:\s*(?:\+|and|&)\s*\p{Lu}[\p{L}'-]+)?\s+(?:` + actorVerbList + `)\b`)
	})
	actorVerbs = sync.OnceValue(func() []string { return strings.Split(actorVerbList, "|") })
	notActors  = map[string]bool{"It": true, "This": true, "That": true, "These": true, "Those": true,
		"There": true, "We": true, "They": true, "He": true, "She": true, "You": true, "I": true,
		"Nothing": true, "Everything": true, "Everyone": true, "Someone": true, "Nobody": true,
		"Each": true, "Every": true, "Any": true, "All": true, "The": true, "A": true, "An": true,
		"Which": true, "What": true, "Who": true, "Users": true, "Readers": true, "Links": true}
)

// sentences splits the text of every block but headings into sentences
// (nil for headings), once for decisionsAndActions and candidates.
func sentences(blocks []block) [][]string {
	out := make([][]string, len(blocks))
	for i, b := range blocks {
		if b.kind != headingBlock {
			out[i] = splitSentences(b.text)
		}
	}
	return out
}

const (
	otherList = iota + 1
	decisionList
	actionList
)

// listKind is what the items of a section are, from its heading, or from
// the paragraph that introduces them ("After some discussion, agreed:").
func listKind(section, intro string) int {
	switch {
	case decisionHead().MatchString(section):
		return decisionList
	case actionHead().MatchString(section):
		return actionList
	case decisionIntro().MatchString(intro):
		return decisionList
	case actionIntro().MatchString(intro):
		return actionList
	}
	return otherList
}

func decisionsAndActions(blocks []block, sents [][]string) (decisions, actions []string) {
	seenD, seenA := map[string]bool{}, map[string]bool{}
	add := func(list *[]string, seen map[string]bool, s string) {
		s = capitalize(strings.TrimSpace(s))
		if s == "" || seen[strings.ToLower(s)] {
			return
		}
		seen[strings.ToLower(s)] = true
		*list = append(*list, s)
	}
	intro := "" // the paragraph right before a list
	for bi, b := range blocks {
		switch b.kind {
		case headingBlock:
			intro = ""
			continue
		case itemBlock:
			kind := listKind(b.section, intro)
			switch {
			case b.task == 1:
				add(&actions, seenA, b.text)
				continue
			case b.task == 2:
				continue // done, not an open action
			case kind == decisionList && (ownerSign().MatchString(b.text) || actor(b.text)):
				add(&actions, seenA, b.text) // "we add an alert — Beatriz owns, by Aug 26"
				continue
			case kind == decisionList:
				add(&decisions, seenD, decisionMarker().ReplaceAllString(b.text, ""))
				continue
			case kind == actionList:
				add(&actions, seenA, actionMarker().ReplaceAllString(b.text, ""))
				continue
			case b.row:
				continue
			}
		case paraBlock:
			intro = b.text
		}
		decided := false // the paragraph opened with "Agreed:": what follows is decided
		for _, s := range sents[bi] {
			exact := foldsExactly(s)
			switch {
			case (!exact || mayDecisionMarker(s)) && decisionMarker().MatchString(s):
				add(&decisions, seenD, decisionMarker().ReplaceAllString(s, ""))
				decided = true
			case (!exact || mayActionMarker(s)) && actionMarker().MatchString(s):
				add(&actions, seenA, actionMarker().ReplaceAllString(s, ""))
			case (!exact || mayDecisionWords(s)) && decisionWords().MatchString(s):
				add(&decisions, seenD, s)
				decided = true
			case (!exact || mayActionWords(s)) && actionWords().MatchString(s) || actor(s):
				add(&actions, seenA, s)
			case decided && b.kind == paraBlock:
				add(&decisions, seenD, s)
			}
		}
	}
	return decisions, actions
}

// actorVerbList holds the verbs of doing that actorVerb reads after a name.
const actorVerbList = "will|owns|to|builds|writes|adds|takes|sets|moves|fixes|updates|drafts|sends|reviews|re-reviews|removes|" +
	"escalates|checks|follows|files|runs|schedules|investigates|creates|pairs|prepares|migrates|rolls|ships|contacts|tells"

// actor finds "Tomás will write the fuzz test", "Kofi builds it": a
// capitalised name (not a pronoun or determiner) that opens a sentence
// with "will" or a verb of doing.
func actor(s string) bool {
	if !mayActor(s) {
		return false
	}
	m := actorVerb().FindStringSubmatch(s)
	return m != nil && !notActors[m[1]]
}
