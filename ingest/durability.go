package ingest

import (
	"fmt"
	"regexp"
	"strings"
)

// Durability says how long a consult answer stays true, which decides
// whether it may be filed back (DESIGN.md §7, gate 2): durable answers are
// filed, time_bound ones are filed with an expiry, ephemeral ones never.
type Durability string

// The durabilities, spelled as they appear in frontmatter and on the CLI.
const (
	// Durable answers hold until someone changes the system: decisions,
	// conventions, how things work, lessons, rationale.
	Durable Durability = "durable"
	// TimeBound answers are facts with an evident shelf life: current
	// versions, release dates, deadlines, temporary workarounds.
	TimeBound Durability = "time_bound"
	// Ephemeral answers are live state: planning, priorities, status, who
	// is on call this week. They are stale by the time anyone reads them.
	Ephemeral Durability = "ephemeral"
)

// ParseDurability reads the durability a caller stated (a CLI flag, an MCP
// argument). It accepts "time-bound" and any case. An empty string means the
// caller did not say and returns the zero Durability with no error.
func ParseDurability(s string) (Durability, error) {
	w := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	switch Durability(w) {
	case "":
		return "", nil
	case Durable, TimeBound, Ephemeral:
		return Durability(w), nil
	}
	return "", fmt.Errorf("unknown durability %q: want durable, time_bound or ephemeral", s)
}

// CombineDurability merges the caller's statement with the rule's verdict:
// the shorter-lived wins (ephemeral, then time_bound, then durable). A
// caller can make an answer stricter than the rules but never looser, so an
// agent cannot file live state by calling it durable. A zero or unknown
// value is ignored; if both are, the result is the zero Durability.
func CombineDurability(caller, rule Durability) Durability {
	if durabilityRank(caller) >= durabilityRank(rule) {
		if durabilityRank(caller) == 0 {
			return ""
		}
		return caller
	}
	return rule
}

func durabilityRank(d Durability) int {
	switch d {
	case Ephemeral:
		return 3
	case TimeBound:
		return 2
	case Durable:
		return 1
	}
	return 0
}

// durabilityRule is one cue. Question rules see the question only; answer
// rules see the answer too (some cues, like "this sprint", mark live state
// wherever they appear, while others, like "today", are too common in
// durable answers to be trusted outside the question).
type durabilityRule struct {
	d      Durability
	re     *regexp.Regexp
	reason string
	answer bool
}

// Rules are tried in order: every ephemeral rule before any time_bound one,
// so that "what is the current status" is ephemeral, not time_bound.
var durabilityRules = []durabilityRule{
	{Ephemeral, regexp.MustCompile(`(?i)\bwhat\s+(?:should|shall|can|could|do|does)\s+[\w@.-]+(?:\s+\w+)?\s+(?:work\s+on|pick\s+up|tackle|focus\s+on|prioriti[sz]e)\b`), "asks what to work on", false},
	{Ephemeral, regexp.MustCompile(`(?i)\b(?:work\s+on|pick\s+up|tackle|do)\s+next\b|\bwhat(?:'s|\s+is)\s+next\b`), "asks what comes next", false},
	{Ephemeral, regexp.MustCompile(`(?i)\bprioriti[sz]|\bpriorities\b|\bhighest[- ]priority\b|\btop\s+priority\b`), "prioritisation", false},
	{Ephemeral, regexp.MustCompile(`(?i)\bstand-?ups?\b|\bstatus\s+(?:update|report|of|on)\b|\bcurrent\s+status\b|\bwhat(?:'s|\s+is)\s+the\s+status\s*(?:\?|$|of\b|on\b|with\b)|\bstatus\?`), "status", false},
	{Ephemeral, regexp.MustCompile(`(?i)\bwho(?:'s|\s+is)\s+on[- ]call\b|\bon[- ]call\s+(?:this|next|today|tonight|now|right\s+now)\b`), "who is on call now", false},
	{Ephemeral, regexp.MustCompile(`(?i)\b(?:is|are|what(?:'s|\s+is)|what\s+are|who\s+is|anything)\s+(?:\w+\s+){0,3}blocked\b|\b(?:what\s+are\s+the|any|current|open|our)\s+blockers\b`), "what is blocked", false},
	{Ephemeral, regexp.MustCompile(`(?i)\b(?:this|current|next|the\s+current)\s+(?:sprint|iteration)\b|\bthis\s+sprint's\b|\bstatus\s+update\b|\bin\s+today's\s+standup\b`), "this sprint", true},
	{Ephemeral, regexp.MustCompile(`(?i)\b(?:today|tonight|tomorrow|yesterday|this\s+(?:morning|afternoon|evening|week)|right\s+now|at\s+the\s+moment)\b`), "today or this week", false},
	{Ephemeral, regexp.MustCompile(`(?i)\b(?:who\s+is|who's|is\s+anyone|anyone)\s+(?:working|assigned)\b|\bin\s+progress\b|\b(?:is|has)\s+(?:[A-Z][A-Z0-9]+-\d+|ticket\s+\S+|#\d+)\s+(?:been\s+)?(?:done|merged|fixed|closed|shipped|landed)\b|\bplan\s+for\s+(?:today|tomorrow|the\s+week)\b`), "current work on a ticket", false},
	{Ephemeral, regexp.MustCompile(`(?i)\bwhere\s+(?:are|is)\s+\w+\s+(?:at|on)\s+with\b|\bwhere\s+are\s+we\s+(?:on|with)\b|\bhow\s+far\s+along\b|\bETA\b|\bwhen\s+will\s+\S+(?:\s+\S+)?\s+be\s+(?:done|ready|finished)\b|\b(?:done|finished|ready|over|complete)\s+yet\b|\bwhat(?:'s|\s+is)\s+the\s+(?:latest\s+)?progress\b|\bany\s+progress\s+on\b|\bwhat(?:'s|\s+is)\s+the\s+current\s+state\s+of\b`), "progress of ongoing work", false},
	{TimeBound, regexp.MustCompile(`(?i)\bas\s+of\s+(?:now|today|this|writing|\d|january|february|march|april|may|june|july|august|september|october|november|december|q[1-4]|v?\d)`), "as of a date", true},
	{TimeBound, regexp.MustCompile(`(?i)\b(?:currently|for\s+now|at\s+present|for\s+the\s+time\s+being|until\s+further\s+notice|until\s+we\s+(?:migrate|fix|ship|upgrade|move|finish|switch))\b`), "true for now", true},
	{TimeBound, regexp.MustCompile(`(?i)\b(?:latest|newest|current|next)\s+(?:stable\s+)?(?:version|release)\b|\brelease\s+date\b|\b(?:will\s+be|to\s+be)\s+released\b`), "version or release", true},
	{TimeBound, regexp.MustCompile(`(?i)\b(?:what|which)\s+version\b|\bwhen\s+(?:is|will|does)\s+(?:\S+\s+){0,3}(?:released?|ship|launch|land)\b`), "version or release", false},
	{TimeBound, regexp.MustCompile(`(?i)\bdeadlines?\b|\bdue\s+(?:on|by|date)\b|\b(?:this|next|last)\s+(?:quarter|month|year|cycle|half)\b|\bq[1-4]\s*(?:20\d\d|'\d\d)\b|\bby\s+(?:the\s+end\s+of\s+)?(?:january|february|march|april|june|july|august|september|october|november|december)\b`), "deadline or dated plan", true},
	{TimeBound, regexp.MustCompile(`(?i)\bupcoming\b|\bscheduled\s+for\b|\b(?:next|upcoming)\s+(?:meetup|conference|event|outage|maintenance|freeze)\b|\bcode\s+freeze\b|\bend[- ]of[- ]life\b|\bEOL\b|\bdeprecated\s+(?:in|from|after)\b`), "upcoming event or end of life", true},
	{TimeBound, regexp.MustCompile(`(?i)\btemporar(?:y|ily)\s+(?:fix|workaround|solution|measure|hack|patch|disabled|pinned)|\btemporarily\b|\bstopgap\b|\binterim\s+(?:fix|solution)\b|\bworkaround\b|\buntil\s+\S+\s+(?:is|are)\s+(?:fixed|released|merged|resolved)\b`), "temporary workaround", true},
}

// durableCue names what kind of durable knowledge an answer is, for the
// reason only: durable is the default, not something a cue must prove.
var durableCue = regexp.MustCompile(`(?i)\b(?:decided|decision|agreed|convention|we\s+always|we\s+never|rule\s+of\s+thumb|lessons?|learned|rationale|why\b|because|how\s+(?:does|do|to)|works\s+by|design)`)

// ClassifyDurability classifies a consult by rule, with a short reason that
// names the cue found. Ephemeral cues are looked for first, then time_bound
// ones; anything else is durable. The question weighs more than the answer:
// "what should I work on next" is live state whatever the answer says,
// while an answer that mentions "today" may still explain how things work.
func ClassifyDurability(question, answer string) (Durability, string) {
	for _, r := range durabilityRules {
		if m := r.re.FindString(question); m != "" {
			return r.d, fmt.Sprintf("%s: %s (question says %q)", r.d, r.reason, m)
		}
		if r.answer {
			if m := r.re.FindString(answer); m != "" {
				return r.d, fmt.Sprintf("%s: %s (answer says %q)", r.d, r.reason, m)
			}
		}
	}
	if m := durableCue.FindString(question + "\n" + answer); m != "" {
		return Durable, fmt.Sprintf("durable: decision, convention or explanation (%q), no time or status cue", strings.TrimSpace(m))
	}
	return Durable, "durable: no time or status cue"
}
