package wiki

import (
	"context"
	"time"

	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Commit is one commit of the space's branch, with its batch trailers when
// it is a pt batch.
type Commit struct {
	Hash    string    `json:"commit"`
	Parent  string    `json:"parent,omitempty"`
	Author  string    `json:"author"`
	When    time.Time `json:"when"`
	Subject string    `json:"subject"`
	Message string    `json:"-"`
	Batch   *Trailers `json:"batch,omitempty"` // nil for a plain git commit
}

// History walks the branch from rev (HEAD when "") back along first
// parents, newest first, at most max commits (all when max <= 0).
func (s *Space) History(ctx context.Context, rev Rev, max int) ([]Commit, error) {
	if rev == "" {
		h, err := s.Head(ctx)
		if err != nil || h == "" {
			return nil, err
		}
		rev = h
	}
	h, err := toHash(rev)
	if err != nil {
		return nil, err
	}
	if s.prefix == "" {
		cs, err := s.store.Log(ctx, h, max)
		if err != nil {
			return nil, err
		}
		out := make([]Commit, 0, len(cs))
		for _, c := range cs {
			out = append(out, toCommit(c))
		}
		return out, nil
	}
	// A space in a subdirectory shares its branch with the rest of the
	// repository: its history is the commits that changed its directory.
	cs, err := s.store.Log(ctx, h, 0)
	if err != nil {
		return nil, err
	}
	out := []Commit{}
	for i, c := range cs {
		mine, err := s.store.TreeAt(ctx, c.Hash, s.prefix)
		if err != nil {
			return nil, err
		}
		var before gitstore.Hash
		if len(c.Parents) > 0 {
			if i+1 < len(cs) && cs[i+1].Hash == c.Parents[0] {
				before, err = s.store.TreeAt(ctx, cs[i+1].Hash, s.prefix)
			} else {
				before, err = s.store.TreeAt(ctx, c.Parents[0], s.prefix)
			}
			if err != nil {
				return nil, err
			}
		}
		if mine != before {
			out = append(out, toCommit(c))
			if max > 0 && len(out) == max {
				break
			}
		}
	}
	return out, nil
}

func toCommit(c gitstore.Commit) Commit {
	out := Commit{
		Hash:    c.Hash.String(),
		Author:  c.Author.Name,
		When:    c.Author.When,
		Subject: Subject(c.Message),
		Message: c.Message,
	}
	if len(c.Parents) > 0 {
		out.Parent = c.Parents[0].String()
	}
	if t, ok := ParseTrailers(c.Message); ok {
		out.Batch = &t
	}
	return out
}

// FindBatch returns the commit that wrote batch id, searching back from
// HEAD.
func (s *Space) FindBatch(ctx context.Context, id string) (Commit, error) {
	cs, err := s.History(ctx, "", 0)
	if err != nil {
		return Commit{}, err
	}
	for _, c := range cs {
		if c.Batch != nil && c.Batch.BatchID == id {
			return c, nil
		}
	}
	return Commit{}, &notFoundError{what: "batch " + id}
}

type notFoundError struct{ what string }

func (e *notFoundError) Error() string { return e.what + ": not found" }
func (e *notFoundError) Unwrap() error { return ErrNotFound }
