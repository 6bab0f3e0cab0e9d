package wiki

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Proposal refs: a proposed batch waits on a branch of its own, which a git
// host shows for review like any branch; a rejected one is kept, with the
// reason, under refs/pt/rejected/.
const (
	ProposalPrefix = "refs/heads/pt/proposals/"
	rejectedPrefix = "refs/pt/rejected/"
)

// Errors of Approve and Reject that callers branch on.
var (
	// ErrNoProposal: no proposal has that id, and no batch either.
	ErrNoProposal = errors.New("no such proposal")
	// ErrApproved: the proposal was approved already; its batch is on the
	// branch.
	ErrApproved = errors.New("proposal already approved")
	// ErrRejected: the proposal was rejected.
	ErrRejected = errors.New("proposal rejected")
)

// ProposalRef is the branch of the proposal with batch id id.
func ProposalRef(id string) string { return ProposalPrefix + id }

var proposalIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) })

// Proposal is a batch waiting for a person's review: the JSON of `pt
// proposals --json`.
type Proposal struct {
	ID     string `json:"id"` // the batch id: what pt approve and pt reject take
	Kind   string `json:"kind"`
	Title  string `json:"title"`
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	Base   string `json:"base"` // the head it was prepared on
	Agent  string `json:"agent,omitempty"`
	// Finding is the finding the proposal fixes (pt curate --propose).
	Finding string    `json:"finding,omitempty"`
	Author  string    `json:"author"`
	When    time.Time `json:"when"`
	Paths   []string  `json:"paths"` // its own pages (not the spokes, hub and log it also updates)
}

// proposeCommit writes a prepared batch as a commit on its proposal branch,
// leaving the space's branch and work tree alone.
func (s *Space) proposeCommit(ctx context.Context, tx *Tx) (*Result, error) {
	b := tx.batch
	if !proposalIDRe().MatchString(b.ID) {
		return nil, fmt.Errorf("propose: batch id %q cannot name a branch", b.ID)
	}
	req, res, err := s.commitRequest(tx)
	if err != nil {
		return nil, err
	}
	ref := ProposalRef(b.ID)
	if cur, err := s.store.Ref(ctx, ref); err != nil || !cur.IsZero() {
		return nil, fmt.Errorf("propose: %s exists already (%v)", ref, err)
	}
	h, err := s.store.WriteCommit(ctx, req)
	if errors.Is(err, gitstore.ErrNoChange) {
		return &Result{Kind: b.Kind, Unchanged: true, Pages: []Written{}, NotUpdated: tx.skipped}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("propose %s batch %s: %w", b.Kind, b.ID, err)
	}
	if err := s.store.SetRef(ctx, ref, gitstore.Hash{}, h); err != nil {
		return nil, fmt.Errorf("propose %s batch %s: %w", b.Kind, b.ID, err)
	}
	res.Commit, res.Proposal = h.String(), ref
	return res, nil
}

// Proposals lists the open proposals of the space, oldest first.
func (s *Space) Proposals(ctx context.Context) ([]Proposal, error) {
	refs, err := s.store.Refs(ctx, ProposalPrefix)
	if err != nil {
		return nil, err
	}
	out := []Proposal{}
	for ref, h := range refs {
		c, err := s.store.CommitInfo(ctx, h)
		if err != nil {
			return nil, fmt.Errorf("proposal %s: %w", ref, err)
		}
		tr, ok := ParseTrailers(c.Message)
		if !ok || ProposalRef(tr.BatchID) != ref || len(c.Parents) != 1 {
			continue // a branch someone else made under the prefix
		}
		pages, err := s.proposalPages(ctx, c)
		if err != nil || len(pages) == 0 {
			continue // another space's proposal, or nothing of its own
		}
		p := Proposal{ID: tr.BatchID, Kind: tr.Kind, Title: strings.TrimPrefix(Subject(c.Message), tr.Kind+": "), Ref: ref,
			Commit: h.String(), Base: c.Parents[0].String(), Agent: tr.AgentName, Finding: tr.Finding, Author: c.Author.Name, When: c.Author.When.UTC(), Paths: []string{}}
		for _, fc := range pages {
			sp, _ := s.spacePath(fc.Path)
			p.Paths = append(p.Paths, sp)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].When.Equal(out[j].When) {
			return out[i].When.Before(out[j].When)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// proposalPages is what a proposal commit changes in this space, less the
// spokes, hub and log that landing it recomputes; nil when it changes a
// path outside the space (another space's proposal).
func (s *Space) proposalPages(ctx context.Context, c gitstore.Commit) ([]gitstore.FileChange, error) {
	diff, err := s.store.Diff(ctx, c.Parents[0], c.Hash)
	if err != nil {
		return nil, err
	}
	var pages []gitstore.FileChange
	for _, fc := range diff {
		p, ok := s.spacePath(fc.Path)
		if !ok {
			return nil, nil
		}
		if !IsIndexPage(p) {
			pages = append(pages, fc)
		}
	}
	return pages, nil
}

// openProposal finds the proposal id, or says why there is none.
func (s *Space) openProposal(ctx context.Context, id string) (gitstore.Commit, error) {
	if !proposalIDRe().MatchString(id) {
		return gitstore.Commit{}, fmt.Errorf("proposal %q: %w", id, ErrNoProposal)
	}
	h, err := s.store.Ref(ctx, ProposalRef(id))
	if err != nil {
		return gitstore.Commit{}, err
	}
	if h.IsZero() {
		if r, err := s.store.Ref(ctx, rejectedPrefix+id); err == nil && !r.IsZero() {
			return gitstore.Commit{}, fmt.Errorf("proposal %s: %w (kept at %s%s)", id, ErrRejected, rejectedPrefix, id)
		}
		if c, err := s.FindBatch(ctx, id); err == nil {
			return gitstore.Commit{}, fmt.Errorf("proposal %s: %w in commit %s", id, ErrApproved, short(c.Hash))
		}
		return gitstore.Commit{}, fmt.Errorf("proposal %s: %w (pt proposals lists them)", id, ErrNoProposal)
	}
	c, err := s.store.CommitInfo(ctx, h)
	if err != nil {
		return gitstore.Commit{}, err
	}
	if tr, ok := ParseTrailers(c.Message); !ok || tr.BatchID != id || len(c.Parents) != 1 {
		return gitstore.Commit{}, fmt.Errorf("proposal %s: %s is not a pt batch proposed on one parent", id, ProposalRef(id))
	}
	return c, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
