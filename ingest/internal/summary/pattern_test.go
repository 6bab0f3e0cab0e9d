package summary

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// patterns are every guarded expression, by name.
func patterns() map[string]pattern {
	return map[string]pattern{
		"chatLine": chatLine, "postmortemSign": postmortemSign, "decisionSign": decisionSign,
		"procedureSign": procedureSign, "meetingSign": meetingSign, "decisionSection": decisionSection,
		"decideWords": decideWords, "tldr": tldr, "strongReason": strongReason, "reasonWords": reasonWords,
		"reasonPlace": reasonPlace, "contextSection": contextSection, "impactSection": impactSection,
		"causeSection": causeSection, "goalSection": goalSection,
	}
}

// checkAgrees fails when a guard turns away a string its expression
// matches, or when mayActor turns away one actorVerb matches.
func checkAgrees(t *testing.T, s string) {
	t.Helper()
	for name, p := range patterns() {
		if got, want := p.MatchString(s), p.re().MatchString(s); got != want {
			t.Errorf("%s.MatchString(%q) = %v, the expression says %v", name, s, got, want)
		}
	}
	if actorVerb().MatchString(s) && !mayActor(s) {
		t.Errorf("mayActor(%q) = false, but actorVerb matches", s)
	}
}

func TestPatternsAgreeWithTheirExpressions(t *testing.T) {
	for _, s := range []string{
		"", ":", ": x", "a: b", "ab:\tc", "ab:c", "dana: ship it", "@dana: ok then", "[12:30] dana: ok",
		"12:30 dana: ok", "[12:30:45]  bo.b-1: yes", "12:3 dana: x", "Ωmega: hi there", "dana:\n x",
		"Postmortem", "post-mortem of the outage", "POSTMORTEM", "Incident Report", "root causes",
		"Impact", "customer impact", "Customer Impact ", "What went wrong", "ADR-12", "adr", "Decision",
		"RFC 42", "Proposal", "proposed design", "Proposed Change", "alternatives considered", "Options considered",
		"Runbook", "playbook", "How to deploy", "how-to", "Steps", "stepson", "Procedure", "prerequisites",
		"Before you begin", "before you start", "Set up", "setting up the cluster", "Guide", "meeting notes",
		"Sync", "standup", "Stand-up", "retro", "Minutes", "handoff", "Planning", "Attendees", "Present",
		"Agenda", "Action items", "The decision", "the  outcome", "What we decided", "We decided", "Conclusion",
		"we will ship", "We Decided to", "we chose", "We choose", "adopting", "go with it", "going with", "settled on",
		"agreed to", "Accepted", "TL;DR: ship it", "tldr - no", "Decision – yes", "Summary: fine", "in short: ok",
		"Bottom line:x", "Reasons", "why", "Rationale", "because", "it is BECAUSE of", "rejected", "in exchange",
		"so that", "due to load", "too slow", "too risky", "costs", "driven by", "motivation", "the reason",
		"decision drivers", "Drivers", "Context", "background", "Problem", "what happened", "overview",
		"tl;dr", "description", "incident summary", "user impact", "Root Cause", "causes", "contributing factors",
		"Goal", "purpose", "when to use", "About", "introduction", "what this does",
		// the two non-ASCII letters that fold to ASCII ones under (?i)
		"\u017fummary: fine", "po\u017ftmortem", "run\u212aook", "play\u212aook: x", "\u212aey decisions",
		"reason\u017f", "why \u017fo", "co\u017ft", "İmpact", "ımpact", "ſo that",
		// actors
		"Tomás will write the fuzz test", "Kofi builds it", "Anna and Bob will go", "Annaand Bob will go",
		"Anna+Bob will", "Anna & Bob owns", "Anna  to-do", "Anna re-reviews it", "It will", "The team will",
		"A will", "Ö'Brien-Smith tells", "Anna\twill", "Anna\nwill", "anna will", "Anna", "Anna will",
		"Anna wills", "Annawill", "Zoë-Ann\fruns", "Ann\xffa will", "\xff will",
	} {
		checkAgrees(t, s)
	}
}

// TestPatternsAgreeOnRandomText compares every guard with its expression
// on strings built from the words, letters and marks they look for.
func TestPatternsAgreeOnRandomText(t *testing.T) {
	parts := []string{
		"post", "mortem", "-", " ", "  ", "\t", "\n", "\f", "\r", ":", ";", "[", "]", "@", "+", "&", "–",
		"1", "12", "30", "45", "incident", "report", "root", "cause", "customer", "impact", "what", "went", "wrong",
		"adr", "ADR", "decision", "rfc", "proposal", "proposed", "design", "solution", "change", "alternatives",
		"considered", "options", "runbook", "playbook", "how", "to", "steps", "procedure", "prerequisites",
		"before", "you", "start", "begin", "set", "setting", "up", "guide", "meeting", "sync", "standup",
		"stand", "retro", "minutes", "handoff", "planning", "attendees", "present", "agenda", "action", "items",
		"the", "outcome", "resolution", "conclusion", "we", "decided", "will", "that", "chose", "choose",
		"adopt", "go", "with", "going", "settled", "on", "agreed", "accepted", "tl", "dr", "summary", "in",
		"short", "bottom", "line", "reason", "reasons", "why", "rationale", "because", "rejected", "exchange",
		"so", "due", "too", "heavy", "slow", "risky", "cost", "costs", "driven", "by", "motivat", "drivers",
		"context", "background", "problem", "happened", "overview", "description", "causes", "contributing",
		"goal", "purpose", "when", "use", "about", "introduction", "this", "Tomás", "Anna", "Bob", "and",
		"owns", "builds", "re-reviews", "tells", "It", "The", "\u017f", "\u212a", "K", "S", "İ", "ı", "é", "\xff",
		"Dana", "x", "Ω", "_", ".", "'",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			p := parts[r.IntN(len(parts))]
			switch r.IntN(4) {
			case 0:
				p = strings.ToUpper(p)
			case 1:
				p = strings.ToUpper(p[:1]) + p[1:]
			}
			b.WriteString(p)
			if r.IntN(3) > 0 {
				b.WriteByte(" \t:-"[r.IntN(4)])
			}
		}
		checkAgrees(t, b.String())
		if t.Failed() {
			return
		}
	}
}

func FuzzPatterns(f *testing.F) {
	for _, s := range []string{"dana: ok", "Tomás will write it", "TL;DR: yes", "po\u017ftmortem", "Anna and Bob owns"} {
		f.Add(s)
	}
	f.Fuzz(checkAgrees)
}
