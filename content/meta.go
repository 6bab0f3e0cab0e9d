package content

import (
	"time"
)

// Page kinds, as written in the kind frontmatter key.
const (
	KindSource        = "source"
	KindSummary       = "source_summary"
	KindPage          = "page"
	KindSynthesis     = "synthesis"
	KindRetrospective = "retrospective"
	KindTopic         = "topic"
	KindHub           = "hub"
	KindLog           = "log"
)

// Page statuses. Only active pages are retrieved. The lifecycle of
// knowledge that changes is active → superseded → obsolete → archived, and
// retracted for what was wrong; stale and expired are set by lint and the
// reaper.
const (
	StatusActive     = "active"
	StatusStale      = "stale"
	StatusSuperseded = "superseded"
	StatusObsolete   = "obsolete"
	StatusArchived   = "archived"
	StatusRetracted  = "retracted"
	StatusExpired    = "expired"
)

// Retired reports whether a status takes a page out of the answers for
// good: superseded, obsolete, archived, retracted or expired. A stale page
// is not retired: it comes back once its summary is refreshed.
func Retired(status string) bool {
	switch status {
	case StatusSuperseded, StatusObsolete, StatusArchived, StatusRetracted, StatusExpired:
		return true
	}
	return false
}

// Author kinds. A human-owned page is never rewritten by an agent-driven batch.
const (
	AuthorHuman = "human"
	AuthorAgent = "agent"
)

// Unclassified is the only classification that may enter file-back.
const Unclassified = "UNCLASSIFIED"

// Author says who owns a page; it decides whether automation may rewrite it.
type Author struct {
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
}

// Ref pins a page path to the git blob id of the content that was used, so
// drift is detectable when the page later changes.
type Ref struct {
	Path     string `yaml:"path" json:"path"`
	Revision string `yaml:"revision,omitempty" json:"revision,omitempty"`
}

// Provenance records where a page came from: the batch that wrote it, who
// approved it, and the page revisions it was derived from or cites.
type Provenance struct {
	Batch       string `yaml:"batch,omitempty" json:"batch,omitempty"`
	ApprovedBy  string `yaml:"approved_by,omitempty" json:"approved_by,omitempty"`
	DerivedFrom []Ref  `yaml:"derived_from,omitempty" json:"derived_from,omitempty"`
	Citations   []Ref  `yaml:"citations,omitempty" json:"citations,omitempty"`
	Question    string `yaml:"question,omitempty" json:"question,omitempty"`
	AskedBy     string `yaml:"asked_by,omitempty" json:"asked_by,omitempty"`
	Origin      string `yaml:"origin,omitempty" json:"origin,omitempty"`
}

// IsZero lets omitempty drop an empty provenance block.
func (p Provenance) IsZero() bool {
	return p.Batch == "" && p.ApprovedBy == "" && len(p.DerivedFrom) == 0 &&
		len(p.Citations) == 0 && p.Question == "" && p.AskedBy == "" && p.Origin == ""
}

// IsZero lets omitempty drop an empty author.
func (a Author) IsZero() bool { return a.Kind == "" && a.Name == "" }

// Meta is the frontmatter schema of DESIGN.md §3. Keys it does not know are
// kept by Page and written back unchanged.
type Meta struct {
	Title          string     `yaml:"title,omitempty" json:"title,omitempty"`
	Aliases        []string   `yaml:"aliases,omitempty" json:"aliases,omitempty"` // other names, searched as the title is
	Kind           string     `yaml:"kind,omitempty" json:"kind,omitempty"`
	Topics         []string   `yaml:"topics,omitempty" json:"topics,omitempty"`
	Summary        string     `yaml:"summary,omitempty" json:"summary,omitempty"`
	Author         Author     `yaml:"author,omitempty" json:"author,omitzero"`
	Status         string     `yaml:"status,omitempty" json:"status,omitempty"`
	Classification string     `yaml:"classification,omitempty" json:"classification,omitempty"`
	Durability     string     `yaml:"durability,omitempty" json:"durability,omitempty"`
	Expires        string     `yaml:"expires,omitempty" json:"expires,omitempty"`
	SourceKind     string     `yaml:"source_kind,omitempty" json:"source_kind,omitempty"`
	SupersededBy   string     `yaml:"superseded_by,omitempty" json:"superseded_by,omitempty"` // the successor, with status superseded
	Supersedes     []string   `yaml:"supersedes,omitempty" json:"supersedes,omitempty"`       // the pages this one replaced
	Retraction     string     `yaml:"retraction,omitempty" json:"retraction,omitempty"`       // why the page was retracted
	AppliesTo      []string   `yaml:"applies_to,omitempty" json:"applies_to,omitempty"`       // globs over the code repository (internal/ledger/**)
	Provenance     Provenance `yaml:"provenance,omitempty" json:"provenance,omitzero"`
	Created        time.Time  `yaml:"created,omitempty" json:"created,omitzero"`
	Updated        time.Time  `yaml:"updated,omitempty" json:"updated,omitzero"`
}

// ExpiresAt parses Expires, which is a date (2027-01-31) or an RFC 3339
// time. A date expires at the end of that day, UTC.
func (m Meta) ExpiresAt() (time.Time, bool) {
	if m.Expires == "" {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339, m.Expires); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.DateOnly, m.Expires); err == nil {
		return t.Add(24*time.Hour - time.Nanosecond), true
	}
	return time.Time{}, false
}

// Active reports whether the page may be retrieved at now: its status is
// active (or unset) and it is not past its expiry.
func (m Meta) Active(now time.Time) bool {
	switch m.Status {
	case "", StatusActive:
	default:
		return false
	}
	if t, ok := m.ExpiresAt(); ok && !now.IsZero() && now.After(t) {
		return false
	}
	return true
}

// OwnedByHuman reports whether automation must leave the page alone: a
// person wrote it, or it says nothing of its author (a page committed with
// git and no frontmatter is a person's). A person hands a page to agents
// by setting author.kind: agent.
func (m Meta) OwnedByHuman() bool { return m.Author.Kind != AuthorAgent }
