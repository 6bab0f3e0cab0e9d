package summary

import (
	"strings"
)

// The source kinds the summarizer leads by. A runbook or how-to comes in
// as a doc, or with no kind at all; its shape tells.
const (
	kindDecision   = "decision"
	kindMeeting    = "meeting-notes"
	kindPostmortem = "postmortem"
	kindChat       = "chat"
	kindProcedure  = "procedure"
)

var (
	chatLine       = guard(`^(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s+)?@?[\p{L}][\p{L}\p{N}._-]{0,23}:\s+\S`, hasColonSpace)
	postmortemSign = guard(`(?i)\bpost-?mortem\b|\bincident report\b|^root cause|^(?:customer )?impact$|^what went wrong`, func(s string) bool {
		return containsAnyFold(s, "mortem", "incident report") || hasAnyPrefixFold(s, "root cause", "customer impact", "impact", "what went wrong")
	})
	decisionSign = guard(`(?i)\bADR\b|\bdecision\b|\bRFC\b|^(?:proposal|proposed (?:design|solution|change)|alternatives(?: considered)?|options considered)$`, func(s string) bool {
		return containsAnyFold(s, "adr", "decision", "rfc") || hasAnyPrefixFold(s, "proposal", "proposed ", "alternatives", "options considered")
	})
	procedureSign = guard(`(?i)\brunbook\b|\bplaybook\b|\bhow[ -]to\b|^steps\b|^procedure|^prerequisites|^before you (?:start|begin)|\bset(?:ting)? up\b|\bguide\b`, func(s string) bool {
		return containsAnyFold(s, "runbook", "playbook", "how to", "how-to", "set up", "setting up", "guide") ||
			hasAnyPrefixFold(s, "steps", "procedure", "prerequisites", "before you ")
	})
	meetingSign = guard(`(?i)\bmeeting\b|\bsync\b|\bstandup\b|\bstand-up\b|\bretro\b|\bminutes\b|\bhandoff\b|\bplanning\b|^attendees\b|^present\b|^agenda\b|^action items\b`, func(s string) bool {
		return containsAnyFold(s, "meeting", "sync", "standup", "stand-up", "retro", "minutes", "handoff", "planning") ||
			hasAnyPrefixFold(s, "attendees", "present", "agenda", "action items")
	})
)

// kindOf is the kind the summary leads by: the given one when it says
// something, else the one the source's shape shows (a chat's "name: text"
// lines, a postmortem's root cause, a decision record's title, a
// procedure's steps, a meeting's attendees), else "".
func kindOf(given, title string, blocks []block) string {
	switch given {
	case kindDecision, kindMeeting, kindPostmortem, kindChat:
		return given
	}
	lines, chat := 0, 0
	var heads []string
	heads = append(heads, title)
	for _, b := range blocks {
		switch b.kind {
		case headingBlock:
			heads = append(heads, b.text)
		case paraBlock:
			for _, l := range b.lines {
				lines++
				if chatLine.MatchString(l) && !metaKey().MatchString(l) {
					chat++
				}
			}
		case itemBlock:
			lines++
		}
	}
	if chat >= 4 && 2*chat >= lines {
		return kindChat
	}
	for _, k := range []struct {
		kind string
		re   pattern
	}{{kindPostmortem, postmortemSign}, {kindDecision, decisionSign}, {kindProcedure, procedureSign}, {kindMeeting, meetingSign}} {
		for _, h := range heads {
			if k.re.MatchString(strings.TrimSpace(h)) {
				return k.kind
			}
		}
	}
	return ""
}
