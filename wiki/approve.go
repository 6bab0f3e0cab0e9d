package wiki

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// ApproveOptions says who approves a proposal and who lands it.
type ApproveOptions struct {
	ApprovedBy string // the person who approved it (mandatory)
	Committer  Author // recorded in the reflog; zero means "pt"
}

// Approve lands the proposal id on the space's branch as exactly one commit
// (no merge commit), rebuilt on the current head the way Sync rebuilds a
// batch: its own pages as proposed, its spokes, hub and log entry computed
// on what is there now, with Approved-By in its message and approved_by in
// the provenance of the pages it wrote. When a later commit changed one of
// its pages, it refuses with a *ConflictError naming them and writes
// nothing. The proposal's branch is deleted once the batch has landed.
func (s *Space) Approve(ctx context.Context, id string, opts ApproveOptions) (*Result, error) {
	approver := strings.TrimSpace(opts.ApprovedBy)
	if approver == "" {
		return nil, errors.New("approve: approved_by is required: name the person who approved the proposal")
	}
	c, err := s.openProposal(ctx, id)
	if err != nil {
		return nil, err
	}
	unlock, err := s.store.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another process may have approved or rejected it while this one
	// waited for the lock.
	if h, err := s.store.Ref(ctx, ProposalRef(id)); err != nil || h != c.Hash {
		unlock()
		if _, err := s.openProposal(ctx, id); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("approve %s: the proposal changed while waiting; run pt approve again", id)
	}
	who := gitstore.Signature{Name: opts.Committer.Name, Email: opts.Committer.Email, When: s.Now()}
	if who.Name == "" {
		who.Name, who.Email = "pt", "pt@localhost"
	}
	for attempt := 0; ; attempt++ {
		head, err := s.Head(ctx)
		if err != nil {
			return nil, err
		}
		onto, err := toHash(head)
		if err != nil {
			return nil, err
		}
		next, res, err := s.landProposal(ctx, c, onto, approver)
		if err != nil {
			return nil, err
		}
		cr, err := s.store.MoveBranch(ctx, onto, next, "approve "+id, who)
		if errors.Is(err, gitstore.ErrStale) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("approve %s: %w", id, err)
		}
		res.Commit, res.WorktreeSkipped = next.String(), cr.SkippedWorktree
		if err := s.store.DeleteRef(ctx, ProposalRef(id), c.Hash); err != nil {
			return nil, fmt.Errorf("approve %s: landed as %s, but its branch stays: %w", id, short(res.Commit), err)
		}
		unlock()
		s.afterCommitted(res)
		return res, nil
	}
}

// landProposal writes the commit that lands proposal c on onto, and the
// result listing its paths; nothing moves yet.
func (s *Space) landProposal(ctx context.Context, c gitstore.Commit, onto gitstore.Hash, approver string) (gitstore.Hash, *Result, error) {
	tr, _ := ParseTrailers(c.Message)
	pages, err := s.proposalPages(ctx, c)
	if err != nil {
		return gitstore.Hash{}, nil, err
	}
	if pages == nil {
		return gitstore.Hash{}, nil, fmt.Errorf("approve %s: the proposal changes nothing in this space", tr.BatchID)
	}
	var clash []string
	for _, fc := range pages {
		cur, err := s.store.BlobOf(ctx, onto, fc.Path)
		if errors.Is(err, gitstore.ErrNotFound) {
			cur, err = gitstore.Hash{}, nil
		}
		if err != nil {
			return gitstore.Hash{}, nil, err
		}
		if cur != fc.From && cur != fc.To {
			p, _ := s.spacePath(fc.Path)
			clash = append(clash, p)
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return gitstore.Hash{}, nil, &ConflictError{Op: "approve " + tr.BatchID + " (reject it and propose again on the new head)", Paths: clash}
	}
	tr.ApprovedBy = approver
	c.Message = withApprover(c.Message, approver)
	dataOf := func(fc gitstore.FileChange) ([]byte, bool, error) {
		if fc.To.IsZero() {
			return nil, true, nil
		}
		data, err := s.store.ReadBlob(ctx, fc.To)
		if err != nil {
			return nil, false, err
		}
		return approvedPage(fc.Path, data, tr), false, nil
	}
	changes, err := s.rebuildBatch(ctx, c, tr, pages, dataOf, onto, false)
	if err != nil {
		return gitstore.Hash{}, nil, err
	}
	h, err := s.store.WriteCommit(ctx, gitstore.CommitRequest{Parent: onto, Changes: changes, Message: c.Message, Author: c.Author, Committer: c.Committer})
	if errors.Is(err, gitstore.ErrNoChange) {
		return gitstore.Hash{}, nil, fmt.Errorf("approve %s: the head holds everything it changes already", tr.BatchID)
	}
	if err != nil {
		return gitstore.Hash{}, nil, err
	}
	res := &Result{Batch: tr.BatchID, Kind: tr.Kind, Pages: []Written{}}
	for _, ch := range changes {
		p, _ := s.spacePath(ch.Path)
		w := Written{Path: p, Role: RolePage, Deleted: ch.Delete}
		if !ch.Delete {
			w.Revision = BlobID(ch.Data)
		}
		if IsIndexPage(p) {
			w.Role = RoleSpoke
			if p == HubPath {
				w.Role = RoleHub
			} else if p == LogPath || strings.HasPrefix(p, LogDir) {
				w.Role = RoleLog
			}
		}
		res.Pages = append(res.Pages, w)
	}
	return h, res, nil
}

// approvedPage records the approver in the provenance of a page the batch
// wrote (its provenance names the batch and no approver yet); any other
// file is kept as proposed.
func approvedPage(p string, data []byte, tr Trailers) []byte {
	pg, err := content.Parse(p, data)
	if err != nil || pg.Meta.Provenance.Batch != tr.BatchID || pg.Meta.Provenance.ApprovedBy != "" {
		return data
	}
	pg.Meta.Provenance.ApprovedBy = tr.ApprovedBy
	out, err := pg.Bytes()
	if err != nil {
		return data
	}
	return out
}

// withApprover adds (or replaces) the Approved-By trailer of a batch
// message, right after its Batch-Kind line.
func withApprover(msg, approver string) string {
	lines := strings.SplitAfter(msg, "\n")
	out := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		if strings.HasPrefix(l, "Approved-By: ") {
			continue
		}
		out = append(out, l)
		if strings.HasPrefix(l, "Batch-Kind: ") {
			out = append(out, "Approved-By: "+oneLine(approver)+"\n")
		}
	}
	return strings.Join(out, "")
}

// Rejection is what Reject did: the JSON of `pt reject --json`.
type Rejection struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	Ref    string `json:"ref"`    // where the proposal is kept, with the reason
	Commit string `json:"commit"` // the commit recording the rejection
}

// Reject closes the proposal id: its branch is deleted and the proposal
// kept under refs/pt/rejected/<id> by a commit on top of it whose message
// holds the reason, so that the agent that proposed it can read why.
func (s *Space) Reject(ctx context.Context, id, reason string, by Author) (*Rejection, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, errors.New("reject: a reason is required: say why, for the agent that proposed it")
	}
	c, err := s.openProposal(ctx, id)
	if err != nil {
		return nil, err
	}
	who := gitstore.Signature{Name: by.Name, Email: by.Email, When: s.Now()}
	if who.Name == "" {
		who.Name, who.Email = "pt", "pt@localhost"
	}
	if who.Email == "" {
		who.Email = "pt@localhost"
	}
	msg := "reject: " + Subject(c.Message) + "\n\n" + reason + "\n\nRejected-Batch: " + id + "\nRejected-By: " + oneLine(who.Name) + "\n"
	h, err := s.store.WriteCommit(ctx, gitstore.CommitRequest{Parent: c.Hash, Message: msg, Author: who, Committer: who, AllowEmpty: true})
	if err != nil {
		return nil, fmt.Errorf("reject %s: %w", id, err)
	}
	ref := rejectedPrefix + id
	if err := s.store.SetRef(ctx, ref, gitstore.Hash{}, h); err != nil {
		return nil, fmt.Errorf("reject %s: %w", id, err)
	}
	if err := s.store.DeleteRef(ctx, ProposalRef(id), c.Hash); err != nil {
		return nil, fmt.Errorf("reject %s: %w", id, err)
	}
	return &Rejection{ID: id, Reason: reason, Ref: ref, Commit: h.String()}, nil
}
