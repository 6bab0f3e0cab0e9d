package ingest

import (
	"fmt"
	"strings"
	"time"
)

// durability says how long a consult answer stays true, which decides
// whether it may be filed back (DESIGN.md §7, gate 2): durable answers are
// filed, time_bound ones are filed with an expiry, ephemeral ones never.
type durability string

// The durabilities, spelled as they appear in frontmatter and on the CLI.
const (
	// durable answers hold until someone changes the system: decisions,
	// conventions, how things work, lessons, rationale.
	durable durability = "durable"
	// timeBound answers are facts that hold for now but will change:
	// current versions, supported ports, current tools and people,
	// calendars, deadlines, temporary workarounds.
	timeBound durability = "time_bound"
	// ephemeral answers are live state of work, which changes daily:
	// planning, priorities, status, blockers, who is on a rota or on call,
	// pending approvals, what to do before a named day. They are stale by
	// the time anyone reads them.
	ephemeral durability = "ephemeral"
)

// CheckDurability refuses a durability a caller stated (a CLI flag, an MCP
// argument) that FileBack would refuse: one of durable, time_bound (or
// time-bound) and ephemeral, in any case, or empty for unstated.
func CheckDurability(s string) error {
	_, err := parseDurability(s)
	return err
}

// parseDurability reads the durability a caller stated. It accepts
// "time-bound" and any case. An empty string means the caller did not say
// and returns the zero durability with no error.
func parseDurability(s string) (durability, error) {
	w := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	switch durability(w) {
	case "":
		return "", nil
	case durable, timeBound, ephemeral:
		return durability(w), nil
	}
	return "", fmt.Errorf("unknown durability %q: want durable, time_bound or ephemeral", s)
}

// combineDurability merges the caller's statement with the rule's verdict:
// the shorter-lived wins (ephemeral, then time_bound, then durable). A
// caller can make an answer stricter than the rules but never looser, so an
// agent cannot file live state by calling it durable. A zero or unknown
// value is ignored; if both are, the result is the zero durability.
func combineDurability(caller, rule durability) durability {
	if durabilityRank(caller) >= durabilityRank(rule) {
		if durabilityRank(caller) == 0 {
			return ""
		}
		return caller
	}
	return rule
}

func durabilityRank(d durability) int {
	switch d {
	case ephemeral:
		return 3
	case timeBound:
		return 2
	case durable:
		return 1
	}
	return 0
}

// classifyDurability classifies a consult by rule, with a short reason that
// names the cue found. It reads the question and the answer: live-state
// cues first (durabilityRules marks each as read in the question, in the
// answer's first sentence or in the whole answer), then time-bound ones;
// anything else is durable. The question weighs more than the answer: "what
// should I work on next" is live state whatever the answer says, while an
// answer that mentions "today" may still explain how things work.
func classifyDurability(question, answer string) (durability, string) {
	return classifyDurabilityAt(question, answer, time.Time{})
}

// classifyDurabilityAt is classifyDurability as of now: a calendar date
// whose year is before now's is history, not a shelf life, so it makes
// nothing time-bound. A zero now counts every date.
func classifyDurabilityAt(question, answer string, now time.Time) (durability, string) {
	first := firstSentence(answer)
	for _, r := range durabilityRules() {
		if r.unless != nil && r.unless.MatchString(question) {
			continue
		}
		for _, in := range []struct {
			on   bool
			text string
			who  string
		}{{r.where&inQuestion != 0, question, "question"}, {r.where&inFirst != 0, first, "answer"}, {r.where&inAnswer != 0, answer, "answer"}} {
			if !in.on {
				continue
			}
			if m := r.re.FindString(in.text); m != "" {
				return r.d, fmt.Sprintf("%s: %s (%s says %q)", r.d, r.reason, in.who, strings.TrimSpace(m))
			}
		}
	}
	if d, ok := presentDate(question+"\n"+answer, now); ok {
		return timeBound, fmt.Sprintf("%s: a date anchors it (%q)", timeBound, d)
	}
	if m := durableCue.FindString(question + "\n" + answer); m != "" {
		return durable, fmt.Sprintf("durable: decision, convention or explanation (%q), no time or status cue", strings.TrimSpace(m))
	}
	return durable, "durable: no time or status cue"
}

// firstSentence is the answer up to its first full stop, question mark,
// exclamation mark or line break: where a reply to "is X still Y?" says
// that it is.
func firstSentence(answer string) string {
	s := strings.TrimSpace(answer)
	for i, r := range s {
		switch r {
		case '.', '?', '!', '\n':
			if r != '.' || i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				return s[:i+1]
			}
		}
	}
	return s
}
