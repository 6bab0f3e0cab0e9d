package web

import (
	"context"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// Lifecycle statuses beyond the ones content names.
const (
	statusSuperseded = "superseded"
	statusObsolete   = "obsolete"
	statusArchived   = "archived"
)

// provenance is a page's provenance panel: where it came from, who
// vouched for it, whether what it rests on is still what it pinned, and
// where it stands in its lifecycle.
type provenance struct {
	Kind           string
	Author         content.Author
	AuthorKind     string // human, agent, or "" when the page names no author (treated as a person's)
	ApprovedBy     string
	Batch          string
	Question       string
	AskedBy        string
	Origin         string
	DerivedFrom    []pinned
	Citations      []pinned
	Status         string
	SupersededBy   string
	Supersedes     []string
	Durability     string
	Expires        string
	Expired        bool
	Classification string
	Topics         []string
	Created        time.Time
	Updated        time.Time
}

// pinned is a derived_from or citation entry and whether the page it pins
// still has the pinned content at head.
type pinned struct {
	Path     string
	Revision string // pinned blob
	Current  string // blob at head; "" when the page is gone
	State    string // matches, drifted, gone or unpinned
}

// Pin states.
const (
	pinMatches  = "matches"
	pinDrifted  = "drifted"
	pinGone     = "gone"
	pinUnpinned = "unpinned"
)

// lifecycleKeys are the lifecycle links a page may carry beside the keys
// content.Meta knows; they are read from the frontmatter as written.
type lifecycleKeys struct {
	SupersededBy string   `yaml:"superseded_by"`
	Supersedes   flexList `yaml:"supersedes"`
}

// flexList reads a YAML list or a single string.
type flexList []string

func (l *flexList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = []string{n.Value}
		return nil
	}
	var s []string
	if err := n.Decode(&s); err != nil {
		return nil // a malformed value is lint's to report, not the view's
	}
	*l = s
	return nil
}

// provenanceOf builds the panel of a page read at some commit; pins are
// checked against head.
func (site *Site) provenanceOf(ctx context.Context, head wiki.Rev, pa *wiki.PageAt) provenance {
	m := pa.Page.Meta
	pv := provenance{
		Kind: m.Kind, Author: m.Author, AuthorKind: m.Author.Kind,
		ApprovedBy: m.Provenance.ApprovedBy, Batch: m.Provenance.Batch,
		Question: m.Provenance.Question, AskedBy: m.Provenance.AskedBy, Origin: m.Provenance.Origin,
		Status: m.Status, Durability: m.Durability, Expires: m.Expires,
		Classification: m.Classification, Topics: m.Topics, Created: m.Created, Updated: m.Updated,
	}
	if pv.Status == "" {
		pv.Status = content.StatusActive
	}
	if t, ok := m.ExpiresAt(); ok && site.now().After(t) {
		pv.Expired = true
	}
	var lk lifecycleKeys
	if front := content.RawFrontmatter(pa.Raw); front != nil {
		_ = yaml.Unmarshal(front, &lk) // Parse already read it; only these keys are new
	}
	pv.SupersededBy, pv.Supersedes = lk.SupersededBy, lk.Supersedes
	for _, r := range m.Provenance.DerivedFrom {
		pv.DerivedFrom = append(pv.DerivedFrom, site.pin(ctx, head, r))
	}
	for _, r := range m.Provenance.Citations {
		pv.Citations = append(pv.Citations, site.pin(ctx, head, r))
	}
	return pv
}

// pin checks one pinned reference against head.
func (site *Site) pin(ctx context.Context, head wiki.Rev, r content.Ref) pinned {
	p := pinned{Path: r.Path, Revision: r.Revision}
	_, blob, err := site.space.ReadFile(ctx, head, r.Path)
	switch {
	case err != nil:
		p.State = pinGone
	case r.Revision == "":
		p.Current, p.State = blob, pinUnpinned
	case blob == r.Revision:
		p.Current, p.State = blob, pinMatches
	default:
		p.Current, p.State = blob, pinDrifted
	}
	return p
}

// badge is a mark beside a page's title.
type badge struct {
	Class string // needs-review, stale, time-bound, superseded, retired
	Text  string
	Title string // what it means, on hover
}

// badgesOf marks what a reader must know before trusting the page.
func badgesOf(pv provenance, open []lint.Finding) []badge {
	var out []badge
	if n := len(open); n > 0 {
		out = append(out, badge{"needs-review", "needs review", plural(n, "open finding")})
	}
	switch pv.Status {
	case content.StatusStale:
		out = append(out, badge{"stale", "stale", "a source or citation changed since this page was written"})
	case statusSuperseded:
		out = append(out, badge{"superseded", "superseded", "replaced by a newer page; not returned as an answer"})
	case content.StatusRetracted, content.StatusExpired, statusObsolete, statusArchived:
		out = append(out, badge{"retired", pv.Status, "retired: never returned as an answer"})
	}
	if pv.SupersededBy != "" && pv.Status != statusSuperseded {
		out = append(out, badge{"superseded", "superseded", "superseded by " + pv.SupersededBy})
	}
	if drifted(pv.DerivedFrom) || drifted(pv.Citations) {
		if pv.Status != content.StatusStale {
			out = append(out, badge{"stale", "sources drifted", "a pinned source or citation no longer matches"})
		}
	}
	if pv.Durability == "time_bound" || pv.Expires != "" {
		t := badge{"time-bound", "time-bound", "true until " + pv.Expires}
		if pv.Expired {
			t.Text, t.Title = "expired", "expired on "+pv.Expires
		}
		out = append(out, t)
	}
	return out
}

func drifted(ps []pinned) bool {
	for _, p := range ps {
		if p.State == pinDrifted || p.State == pinGone {
			return true
		}
	}
	return false
}
