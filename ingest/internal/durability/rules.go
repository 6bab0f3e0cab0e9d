package durability

import (
	"regexp"
	"sync"
)

// Where a durability cue is looked for.
const (
	inQuestion = 1 << iota // the question
	inFirst                // the answer's first sentence: "It's still open."
	inAnswer               // the whole answer
)

// durabilityRule is one cue. Some cues mark live state wherever they
// appear ("this sprint"); others ("today", "until") are too common in
// durable answers to be trusted outside the question, or outside the first
// sentence of the answer, where a reply to "is X still Y" says whether it
// is.
type durabilityRule struct {
	d      Kind
	re     *regexp.Regexp
	reason string
	where  int
	// unless, when set, turns the rule off for a question it matches.
	unless *regexp.Regexp
}

// Weekdays, for "before Friday" and "Thursday's demo".
const weekday = `(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`

// durabilityRules are tried in order: every live-state rule before any
// time-bound one, so that "is the tree frozen right now, or can I land
// this week" is ephemeral, not time_bound. Live state is the state of work
// (status, blockers, pending approvals, rotas, plans for a named day); a
// slow-changing fact asked about "today" or "currently" is time_bound.
// They are compiled on first use: only a consult classifies durability,
// and compiling them cost every pt process a few milliseconds at start.
var durabilityRules = sync.OnceValue(func() []durabilityRule {
	return []durabilityRule{
		{Ephemeral, regexp.MustCompile(`(?i)\bwhat\s+(?:should|shall|can|could|do|does)\s+[\w@.-]+(?:\s+\w+)?\s+(?:work\s+on|pick\s+up|tackle|focus\s+on|prioriti[sz]e)\b`), "asks what to work on", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:work\s+on|pick\s+up|tackle|do)\s+next\b|\bwhat(?:'s|\s+is)\s+next\b`), "asks what comes next", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bprioriti[sz](?:e|es|ing|ation)\b|\bpriorities\b|\b(?:top|highest)\s+priority\b`), "prioritisation", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bstand-?ups?\b|\bstatus\s+(?:update|report|of|on)\b|\bcurrent\s+status\b|\bwhat(?:'s|\s+is)\s+the\s+status\s*(?:\?|$|of\b|on\b|with\b)|\bstatus\?`), "status", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bwho(?:'s|\s+is)\s+on[- ]call\b|\bon[- ]call\s+(?:this|next|today|tonight|now|right\s+now)\b|\bwho(?:'s|\s+is|\s+are)\b[^?.]{0,40}\b(?:rota|rotation|roster|covering|on\s+duty|shift)\b`), "who is on a rota now", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:is|are|what(?:'s|\s+is)|what\s+are|who\s+is|anything)\s+(?:\w+\s+){0,3}blocked\b|\b(?:what\s+are\s+the|any|current|open|our|remaining|outstanding)\s+(?:\w+\s+)?blockers\b|\bblockers?\b[^?.]{0,30}\b(?:still|open|remaining|left|outstanding)\b`), "what is blocked", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:this|current|the\s+current)\s+(?:sprint|iteration)\b|\bthis\s+sprint's\b|\bstatus\s+update\b|\bin\s+today's\s+standup\b`), "this sprint", inQuestion | inAnswer, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bnext\s+(?:sprint|iteration)\b`), "the next sprint", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:tonight|tomorrow|yesterday|this\s+(?:morning|afternoon|evening|week)|(?:next|this)\s+week's|next\s+week)\b|\b(?:done|did|doing|merged|shipped|landed|finished|working\s+on)\b[^?.]{0,30}\btoday\b`), "today's or this week's work", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:before|by|until|till|on|for|this|next)\s+(?:next\s+)?` + weekday + `\b|\b` + weekday + `'s\s+(?:\S+\s+){0,2}(?:demo|review|meeting|stand-?up|sync|call|planning|release|cut|deadline|retro)`), "a named day", inQuestion | inAnswer, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:who\s+is|who's|is\s+anyone|anyone)\s+(?:working|assigned)\b|\bin\s+progress\b|\b(?:is|has)\s+(?:[A-Z][A-Z0-9]+-\d+|ticket\s+\S+|#\d+)\s+(?:been\s+)?(?:done|merged|fixed|closed|shipped|landed)\b|\bplan\s+for\s+(?:today|tomorrow|the\s+week)\b`), "current work on a ticket", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bwhere\s+(?:are|is)\s+\w+\s+(?:at|on)\s+with\b|\bwhere\s+are\s+we\s+(?:on|with)\b|\bhow\s+far\s+along\b|\bETA\b|\bwhen\s+will\s+\S+(?:\s+\S+)?\s+be\s+(?:done|ready|finished)\b|\b(?:done|finished|ready|over|complete)\s+yet\b|\bwhat(?:'s|\s+is)\s+the\s+(?:latest\s+)?progress\b|\bany\s+progress\s+on\b|\bwhat(?:'s|\s+is)\s+the\s+current\s+state\s+of\b`), "progress of ongoing work", inQuestion, nil},
		// "Has it been approved yet?", "does my nomination have its
		// endorsements yet?": whether something pending has happened. Whether
		// a tool supports something yet is a fact that holds for now instead.
		{Ephemeral, regexp.MustCompile(`(?i)\b(?:has|have|is|are|was|were|did|does|do)\b[^?.]{0,80}\byet\b`), "whether something pending has happened yet", inQuestion,
			regexp.MustCompile(`(?i)\b(?:support\w*|available|availability|exists?|implement\w*|possible)\b`)},
		{Ephemeral, regexp.MustCompile(`(?i)\bstill\s+(?:be\s+|being\s+)?(?:open|opened|blocked|blocking|failing|failed|broken|red|flaky|marked|alive|waiting|pending|unassigned|unmerged|unreviewed|frozen|down|labell?ed|on\s+hold|in\s+(?:review|progress|flight)|under\s+review|awaiting|outstanding|unresolved|stuck|listed\s+as)\b`), "still in some state", inQuestion | inFirst, nil},
		{Ephemeral, regexp.MustCompile(`(?i)\bwaiting\s+(?:for|on)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?(?:approval|review|reviewer|sign[- ]?off|\+[12]|lgtm)\b|\bpending\s+(?:review|approval|sign[- ]?off|merge|changes?|prs?|cls?|items?)\b|\b(?:is|are)\s+(?:\w+\s+){0,4}pending\b|\bsign(?:ed)?[- ]?off\b[^?.]{0,40}\b(?:yet|happened|given|received|done)\b|\b(?:has|have)\s+(?:\w+\s+){0,4}signed[- ]?off\b`), "pending approval or sign-off", inQuestion, nil},
		{Ephemeral, regexp.MustCompile(`(?i)^(?:no,?\s+)?not\s+yet\b`), "the answer says not yet", inFirst, nil},

		{TimeBound, regexp.MustCompile(`(?i)\b(?:today|nowadays|these\s+days|right\s+now|at\s+the\s+moment|at\s+present|presently|currently|for\s+now|as\s+of\s+now|still\s+(?:supported|available|maintained|recommended|the\s+(?:default|recommended|minimum)))\b`), "holds for now", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\byet\b`), "holds for now (not yet)", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bas\s+of\s+(?:now|today|this|writing|\d|january|february|march|april|may|june|july|august|september|october|november|december|q[1-4]|v?\d|go\s*1\.\d+)`), "as of a date or version", inQuestion | inAnswer, nil},
		{TimeBound, regexp.MustCompile(`(?i)\b(?:currently|for\s+now|at\s+present|presently|nowadays|these\s+days|for\s+the\s+time\s+being|until\s+further\s+notice|until\s+we\s+(?:migrate|fix|ship|upgrade|move|finish|switch)|in\s+this\s+(?:cycle|release\s+cycle))\b`), "true for now", inQuestion | inAnswer, nil},
		{TimeBound, regexp.MustCompile(`(?i)\buntil\s+(?:the\s+)?(?:[\w.'-]+\s+){0,4}(?:cycle|release|election|results|freeze|vote|announcement|migration|upgrade|launch|20\d\d)\b|\buntil\s+(?:go\s*)?v?\d+\.\d+`), "holds until an event", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\b(?:latest|newest|current|next)\s+(?:stable\s+)?(?:\w+\s+)?(?:version|release)s?\b|\brelease\s+date\b|\b(?:will\s+be|to\s+be)\s+released\b`), "version or release", inQuestion | inAnswer, nil},
		{TimeBound, regexp.MustCompile(`(?i)\b(?:what|which)\s+(?:\w+\s+){0,2}versions?\b|\b(?:minimum|min|oldest|required|supported)\b[^?.]{0,40}\bversions?\b|\bversions?\b[^?.]{0,30}\b(?:required|supported|needed|need)\b|\bv?\d+\.\d+(?:\.\d+)?\s+(?:and|or)\s+(?:newer|later|above)\b|\bwhen\s+(?:is|will|does)\s+(?:\S+\s+){0,3}(?:released|shipped|launched|landed|(?:release|ship|launch|land)\s*(?:\?|$))`), "version-bound requirement", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bdeadlines?\b|\bdue\s+(?:on|by|date)\b|\b(?:this|next|the\s+coming)\s+(?:quarter|month|year|cycle|half)\b|\bq[1-4]\s*(?:20\d\d|'\d\d)\b|\bby\s+(?:the\s+end\s+of\s+)?(?:january|february|march|april|june|july|august|september|october|november|december)\b`), "deadline or dated plan", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bkey\s+dates\b|\b(?:what|which)\s+dates?\b|\bdates?\s+(?:of|for)\s+the\b|\bcalendar\b|\btimeline\b|\brelease\s+schedule\b|\b(?:the|its|their|our)\s+schedule\b|\b20\d\d\s+(?:\w+\s+){0,2}(?:election|release|cycle|roadmap|conference|summit|event|term)\b`), "schedule or calendar", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bupcoming\b|\bscheduled\s+for\b|\b(?:next|upcoming)\s+(?:meetup|conference|event|outage|maintenance|freeze)\b|\bcode\s+freeze\b|\bend[- ]of[- ]life\b|\bEOL\b|\bdeprecated\s+(?:in|from|after)\b`), "upcoming event or end of life", inQuestion, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bupcoming\s+\w+|\bend[- ]of[- ]life\b|\bEOL\b`), "upcoming event or end of life", inAnswer, nil},
		{TimeBound, regexp.MustCompile(`(?i)\btemporar(?:y|ily)\s+(?:fix|workaround|solution|measure|hack|patch|disabled|pinned)|\btemporarily\b|\bstopgap\b|\binterim\s+(?:fix|solution)\b|\buntil\s+\S+\s+(?:is|are)\s+(?:fixed|released|merged|resolved)\b`), "temporary workaround", inQuestion | inAnswer, nil},
		{TimeBound, regexp.MustCompile(`(?i)\bworkaround\b`), "temporary workaround", inQuestion, nil},
	}
})

// durableCue names what kind of durable knowledge an answer is, for the
// reason only: durable is the default, not something a cue must prove.
var durableCue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:decided|decision|agreed|convention|we\s+always|we\s+never|rule\s+of\s+thumb|lessons?|learned|rationale|why\b|because|how\s+(?:does|do|to)|works\s+by|design)`)
})
