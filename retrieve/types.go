package retrieve

import "time"

// Request is one question. Zero values: K is DefaultK, Budget is
// DefaultBudget tokens, Now is the current time, and no filter applies.
type Request struct {
	Question string
	Also     []string  // alternative phrasings or keywords from the caller, searched beside the question
	K        int       // at most this many results
	Budget   int       // context budget in tokens (see EstimateTokens)
	Now      time.Time // decides which time_bound pages have expired
	// Clearance is the highest classification the reader may see; pages
	// above it are never returned nor named. "" reads everything, as the
	// repository's owner does (the CLI).
	Clearance string
	// Paths are files of the code repository the agent is about to change
	// (internal/ledger/replay.go): pages whose applies_to covers one come
	// first, and with Paths the question may be empty.
	Paths []string
	// Topics, Kinds and Since keep only pages with one of these topics, of
	// one of these kinds, updated (else created) at or after Since.
	Topics []string
	Kinds  []string
	Since  time.Time
}

// Defaults for a Request's zero values.
const (
	DefaultK      = 8
	DefaultBudget = 4000
	// MaxK caps Request.K: results beyond it would not fit any sane budget.
	MaxK = 50
	// MinBudget is the smallest Budget that holds an excerpt; Query refuses
	// a smaller one (ErrBudgetTooSmall) rather than answer "sufficient"
	// with nothing to cite.
	MinBudget = minExcerptTokens
)

// Result is the answer to a Request: the JSON of `pt query-kb --json` and the
// structured output of the MCP tool query_knowledge_base (DESIGN.md §9).
//
// Sufficient false means the space does not cover the question's subject:
// Results is then empty and Nearest names up to three pages to look at.
// Coverage and MissingTerms are the graded signal every answer carries
// (docs/retrieval.md, "The graded signal"): how much of the question the
// best excerpts hold, and which of its key words none holds. A sufficient
// answer whose excerpts miss a key word may be on the subject without
// stating the fact asked; the caller must check that the excerpts state it.
type Result struct {
	Question     string   `json:"question"`
	Sufficient   bool     `json:"sufficient"`
	Coverage     float64  `json:"coverage" jsonschema:"how much of the question the best three excerpts hold, 0 to 1 (each word weighs more the rarer it is in the space); below about 0.6 the excerpts are likely about the subject without stating the fact asked"`
	MissingTerms []string `json:"missing_terms" jsonschema:"key words of the question that no excerpt contains, rarest first: check that the excerpts state the fact before relying on them"`
	Tokens       int      `json:"tokens"`
	Results      []Hit    `json:"results"`
	Nearest      []Near   `json:"nearest" jsonschema:"when sufficient is false: up to three pages nearest the question, to read with read_page if one looks right"`
	Trace        Trace    `json:"trace"`
}

// MaxNearest bounds Result.Nearest.
const MaxNearest = 3

// Near is a page an insufficient answer points to: no excerpt, only what
// the page is, for the caller to judge whether to read it.
type Near struct {
	Path    string `json:"path"`
	Title   string `json:"title"`
	Summary string `json:"summary"` // one line
}

// Hit is one excerpt of the packed context: a section of a page, cited by
// the page's path and the blob revision it was read at, so that a caller can
// pin what it used and notice when the page changes.
type Hit struct {
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	Revision    string  `json:"revision"`
	Score       float64 `json:"score"` // fused relevance: the pages channel's BM25 score over its best times (2 + the other channels' weighted scores over their best), ×100; compares only within one Result
	Excerpt     string  `json:"excerpt"`
	NeedsReview bool    `json:"needs_review"`
	Heading     string  `json:"heading,omitempty"` // the section's heading path, "" for a page's lead
	Anchor      string  `json:"anchor,omitempty"`  // the section's anchor, for a link path#anchor
	Kind        string  `json:"kind,omitempty"`    // the page's kind (source, source_summary, page, synthesis, ...)
	Tokens      int     `json:"tokens"`            // estimated tokens of Excerpt
}

// Trace says how the answer was found, so that a person can see why a page
// came back (or did not).
type Trace struct {
	Topics     []string `json:"topics"`      // topics whose spokes were read
	SpokesRead int      `json:"spokes_read"` // spoke pages read (a topic split into parts counts each part)
	PagesRead  int      `json:"pages_read"`  // distinct pages whose sections were ranked
	Commit     string   `json:"commit,omitempty"`
	Index      string   `json:"index,omitempty"`    // "disk", "memory" (the disk index was busy or unusable) or "none"
	Coverage   float64  `json:"coverage"`           // the gate's coverage: the question's weight the best three pages hold, whole (see Result.Coverage for the excerpts')
	Candidates int      `json:"candidates"`         // sections considered after fusion
	Reason     string   `json:"reason,omitempty"`   // why the answer is insufficient, when it is
	Channels   []string `json:"channels,omitempty"` // channels that produced candidates: spokes, sections, pages, feedback
	Expanded   []string `json:"expanded,omitempty"` // short forms searched besides the long forms the question spells out ("wg" for "working group")
	Also       []string `json:"also,omitempty"`     // the caller's alternative phrasings, searched beside the question
	// Superseded lists the superseded pages the question matched and the
	// successors that answered in their place.
	Superseded []Redirect `json:"superseded,omitempty"`
	Applied    int        `json:"applied,omitempty"` // pages whose applies_to covers the request's paths
}
