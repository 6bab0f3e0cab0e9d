package wiki

import (
	"context"
	"errors"

	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Revision is one commit that changed a file, with the blob the file had
// after it ("" when the commit deleted it).
type Revision struct {
	Commit
	Revision string `json:"revision,omitempty"`
}

// PageHistory returns the commits that changed the file at path p, newest
// first, walking first parents back from HEAD: at most max (all when max
// <= 0). A page's history is what a reader audits: which batch wrote each
// revision, and what it changed.
func (s *Space) PageHistory(ctx context.Context, p string, max int) ([]Revision, error) {
	head, err := s.Head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	h, err := toHash(head)
	if err != nil {
		return nil, err
	}
	out := []Revision{}
	c, err := s.store.CommitInfo(ctx, h)
	if err != nil {
		return nil, err
	}
	blob, err := s.blobOf(ctx, c.Hash, p)
	if err != nil {
		return nil, err
	}
	for max <= 0 || len(out) < max {
		var parent gitstore.Commit
		var before string
		if len(c.Parents) > 0 {
			if parent, err = s.store.CommitInfo(ctx, c.Parents[0]); err != nil {
				return nil, err
			}
			if before, err = s.blobOf(ctx, parent.Hash, p); err != nil {
				return nil, err
			}
		}
		if blob != before {
			out = append(out, Revision{Commit: toCommit(c), Revision: blob})
		}
		if len(c.Parents) == 0 {
			break
		}
		c, blob = parent, before
	}
	return out, nil
}

// blobOf is the blob of the space's file p at commit c, "" when it has none.
func (s *Space) blobOf(ctx context.Context, c gitstore.Hash, p string) (string, error) {
	b, err := s.store.BlobOf(ctx, c, s.repoPath(p))
	if errors.Is(err, gitstore.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return b.String(), nil
}
