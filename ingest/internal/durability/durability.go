package durability

import (
	"fmt"
	"strings"
	"time"
)

// Kind says how long a consult answer stays true, which decides whether it
// may be filed back (DESIGN.md §7, gate 2): durable answers are filed,
// time_bound ones are filed with an expiry, ephemeral ones never.
type Kind string

// The durabilities, spelled as they appear in frontmatter and on the CLI.
const (
	// Durable answers hold until someone changes the system: decisions,
	// conventions, how things work, lessons, rationale.
	Durable Kind = "durable"
	// TimeBound answers are facts that hold for now but will change:
	// current versions, supported ports, current tools and people,
	// calendars, deadlines, temporary workarounds.
	TimeBound Kind = "time_bound"
	// Ephemeral answers are live state of work, which changes daily:
	// planning, priorities, status, blockers, who is on a rota or on call,
	// pending approvals, what to do before a named day. They are stale by
	// the time anyone reads them.
	Ephemeral Kind = "ephemeral"
)

// Parse reads the durability a caller stated (a CLI flag, an MCP argument,
// a model's reply). It accepts "time-bound" and any case. An empty string means the caller did not say
// and returns the zero Kind with no error.
func Parse(s string) (Kind, error) {
	w := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	switch Kind(w) {
	case "":
		return "", nil
	case Durable, TimeBound, Ephemeral:
		return Kind(w), nil
	}
	return "", fmt.Errorf("unknown durability %q: want durable, time_bound or ephemeral", s)
}

// Combine merges the caller's statement with the rule's verdict:
// the shorter-lived wins (ephemeral, then time_bound, then durable). A
// caller can make an answer stricter than the rules but never looser, so an
// agent cannot file live state by calling it durable. A zero or unknown
// value is ignored; if both are, the result is the zero Kind.
func Combine(caller, rule Kind) Kind {
	if rank(caller) >= rank(rule) {
		if rank(caller) == 0 {
			return ""
		}
		return caller
	}
	return rule
}

func rank(d Kind) int {
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

// Classify classifies a consult by rule, with a short reason that
// names the cue found. It reads the question and the answer: live-state
// cues first (durabilityRules marks each as read in the question, in the
// answer's first sentence or in the whole answer), then time-bound ones;
// anything else is durable. The question weighs more than the answer: "what
// should I work on next" is live state whatever the answer says, while an
// answer that mentions "today" may still explain how things work.
func Classify(question, answer string) (Kind, string) {
	return ClassifyAt(question, answer, time.Time{})
}

// ClassifyAt is Classify as of now: a calendar date whose year is before now's is history, not a shelf life, so it makes
// nothing time-bound. A zero now counts every date.
func ClassifyAt(question, answer string, now time.Time) (Kind, string) {
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
		return TimeBound, fmt.Sprintf("%s: a date anchors it (%q)", TimeBound, d)
	}
	if m := durableCue().FindString(question + "\n" + answer); m != "" {
		return Durable, fmt.Sprintf("durable: decision, convention or explanation (%q), no time or status cue", strings.TrimSpace(m))
	}
	return Durable, "durable: no time or status cue"
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
