package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
)

// RevertOptions says who reverts and when.
type RevertOptions struct {
	ApprovedBy string
	Author     Author
	When       time.Time
}

// Revert writes one new batch that restores every path of batch id to its
// content before that batch (DESIGN.md §4). Spokes, hub and log are not
// restored blindly: they follow the restored pages, and the log gains the
// revert's entry. When a later commit changed one of the batch's own pages
// it refuses with the list of paths, and writes nothing.
func (s *Space) Revert(ctx context.Context, id string, opts RevertOptions) (*Result, error) {
	c, changed, err := s.revertable(ctx, id)
	if err != nil {
		return nil, err
	}
	b := Batch{Kind: KindRevert, Title: "revert " + id + " (" + strings.TrimPrefix(c.Subject, c.Batch.Kind+": ") + ")",
		ApprovedBy: opts.ApprovedBy, Author: opts.Author, When: opts.When, Reverts: id}
	return s.Apply(ctx, b, func(ctx context.Context, tx *Tx) error {
		if err := s.checkRevert(ctx, id, c, changed, tx.Head(), tx.ReadPage, opts); err != nil {
			return err
		}
		for _, fc := range changed {
			if IsIndexPage(fc.Path) {
				// Follows the restored pages; a spoke the batch deleted
				// (its topic emptied) comes back from its own text, with
				// whatever a person wrote in it, if its topic fills again.
				if fc.To == "" && strings.HasPrefix(fc.Path, TopicsDir) {
					if pa, err := s.ReadPage(ctx, Rev(c.Parent), fc.Path); err == nil {
						tx.seeds[fc.Path] = pa
					}
				}
				continue
			}
			if fc.From == "" && c.Batch.Kind == KindImport && s.isOriginal(ctx, fc) {
				tx.Skip(fc.Path, "an original the import committed where it was: left in the space")
				continue
			}
			if fc.From == "" {
				if err := tx.Delete(ctx, fc.Path, RoleRestored); err != nil {
					return err
				}
				continue
			}
			data, err := s.ReadBlob(ctx, fc.From)
			if err != nil {
				return fmt.Errorf("revert %s: read %s: %w", id, fc.Path, err)
			}
			if _, err := tx.PutFile(ctx, fc.Path, data, RoleRestored); err != nil {
				return err
			}
		}
		return nil
	})
}

// ErrPeoplesPages is wrapped by the refusal of an agent's revert that
// would delete a page a person owns or change its body.
var ErrPeoplesPages = errors.New("an agent may not delete or rewrite pages people own")

// checkAgentRevert refuses an agent's revert that would delete a page a
// person owns (author.kind human, or no author), or give it another body:
// pt never rewrites a person's page on an agent's behalf. Lifecycle fields
// alone may change back (the revert of a supersede).
func (s *Space) checkAgentRevert(ctx context.Context, id, kind string, changed []FileChange, read func(context.Context, string) (*PageAt, error)) error {
	var theirs []string
	for _, fc := range changed {
		if IsIndexPage(fc.Path) || !strings.HasSuffix(fc.Path, ".md") || fc.From == "" && kind == KindImport && s.isOriginal(ctx, fc) {
			continue // what the revert leaves alone anyway
		}
		cur, err := read(ctx, fc.Path)
		if err != nil || !cur.Page.Meta.OwnedByHuman() {
			continue // absent (the revert adds it back) or unreadable (no owner to tell)
		}
		if fc.From != "" {
			data, err := s.ReadBlob(ctx, fc.From)
			if err != nil {
				return err
			}
			if old, err := content.Parse(fc.Path, data); err == nil && bytes.Equal(old.Body, cur.Page.Body) {
				continue
			}
		}
		who := cur.Page.Meta.Author.Name
		if who == "" {
			who = "no author: a person's"
		}
		theirs = append(theirs, fc.Path+" ("+who+")")
	}
	if len(theirs) == 0 {
		return nil
	}
	sort.Strings(theirs)
	return fmt.Errorf("revert %s: %w: %s; a person can revert it with pt revert", id, ErrPeoplesPages, strings.Join(theirs, ", "))
}

// revertable finds batch id and what it changed, refusing the batches
// that cannot be reverted.
func (s *Space) revertable(ctx context.Context, id string) (*Commit, []FileChange, error) {
	c, err := s.FindBatch(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("revert %s: %w", id, err)
	}
	if c.Batch.Kind == KindInit {
		return nil, nil, fmt.Errorf("revert %s: the batch that created the space cannot be reverted", id)
	}
	if c.Parent == "" {
		return nil, nil, fmt.Errorf("revert %s: batch has no parent commit", id)
	}
	changed, err := s.Diff(ctx, Rev(c.Parent), Rev(c.Hash))
	if err != nil {
		return nil, nil, err
	}
	return &c, changed, nil
}

// checkRevert refuses a revert at head when a later commit changed one of
// the batch's own pages, or when an agent would delete or rewrite a
// person's page.
func (s *Space) checkRevert(ctx context.Context, id string, c *Commit, changed []FileChange, head Rev, read func(context.Context, string) (*PageAt, error), opts RevertOptions) error {
	later, err := s.Diff(ctx, Rev(c.Hash), head)
	if err != nil {
		return err
	}
	laterSet := map[string]bool{}
	for _, l := range later {
		laterSet[l.Path] = true
	}
	var clash []string
	for _, fc := range changed {
		if !IsIndexPage(fc.Path) && laterSet[fc.Path] {
			clash = append(clash, fc.Path)
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		op := "revert " + id
		if by := s.revertedBy(ctx, id, c.Hash, head); by != "" {
			op += " (already reverted by " + by + ")"
		}
		return &ConflictError{Op: op, Paths: clash}
	}
	if opts.Author.Kind == content.AuthorAgent {
		return s.checkAgentRevert(ctx, id, c.Batch.Kind, changed, read)
	}
	return nil
}

// RevertStep is what a revert would do to one page: delete it (the batch
// added it) or restore it, and who owns the page as it is now.
type RevertStep struct {
	Path       string         `json:"path"`
	Action     string         `json:"action"` // delete | restore
	Owner      content.Author `json:"owner,omitzero"`
	HumanOwned bool           `json:"human_owned"`
}

// PlanRevert says what Revert would do at the head, writing nothing, and
// refuses as Revert would.
func (s *Space) PlanRevert(ctx context.Context, id string, opts RevertOptions) ([]RevertStep, error) {
	c, changed, err := s.revertable(ctx, id)
	if err != nil {
		return nil, err
	}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	read := func(ctx context.Context, p string) (*PageAt, error) { return s.ReadPage(ctx, head, p) }
	if err := s.checkRevert(ctx, id, c, changed, head, read, opts); err != nil {
		return nil, err
	}
	steps := []RevertStep{}
	for _, fc := range changed {
		if IsIndexPage(fc.Path) || fc.From == "" && c.Batch.Kind == KindImport && s.isOriginal(ctx, fc) {
			continue
		}
		st := RevertStep{Path: fc.Path, Action: "restore"}
		if fc.From == "" {
			st.Action = "delete"
		}
		if pa, err := read(ctx, fc.Path); err == nil {
			st.Owner, st.HumanOwned = pa.Page.Meta.Author, pa.Page.Meta.OwnedByHuman()
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// revertedBy names the latest batch between commit (exclusive) and head
// that reverts batch id, or "": a second revert of the same batch then says
// why it conflicts.
func (s *Space) revertedBy(ctx context.Context, id, commit string, head Rev) string {
	cs, err := s.History(ctx, head, 0)
	if err != nil {
		return ""
	}
	for _, c := range cs {
		if c.Hash == commit {
			break
		}
		if c.Batch != nil && c.Batch.Reverts == id {
			return c.Batch.BatchID
		}
	}
	return ""
}

// IsConflict reports whether err is a ConflictError, and its paths.
func IsConflict(err error) ([]string, bool) {
	var ce *ConflictError
	if errors.As(err, &ce) {
		return ce.Paths, true
	}
	return nil, false
}

// Layout of what ingest writes (DESIGN.md §2): the copies of sources and
// their summaries.
const (
	SourcesDir   = "sources/"
	SummariesDir = "summaries/"
)

// isOriginal reports whether a file an import batch added is a person's
// own, committed where it was (an import of a folder inside the space),
// rather than a page pt wrote: pt's copies record where they came from
// (provenance.origin) and its summaries live under summaries/. Reverting
// the import must not delete an original from the person's work tree:
// originals are never moved, changed or deleted.
func (s *Space) isOriginal(ctx context.Context, fc FileChange) bool {
	if strings.HasPrefix(fc.Path, SummariesDir) {
		return false
	}
	data, err := s.ReadBlob(ctx, fc.To)
	if err != nil {
		return false
	}
	pg, err := content.Parse(fc.Path, data)
	return err != nil || pg.Meta.Provenance.Origin == ""
}
