package wiki

import (
	"context"
	"fmt"
	"strings"
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

// LogLine is the one line pt log and the kb_log tool print for a commit:
// its short hash, time, batch id, subject, and who stands behind it (the
// person who approved the batch and the agent that wrote it, else the
// commit's author).
func (c Commit) LogLine() string {
	id := "(plain commit)"
	if c.Batch != nil {
		id = c.Batch.BatchID
	}
	h := c.Hash
	if len(h) > 12 {
		h = h[:12]
	}
	return fmt.Sprintf("%s  %s  %-17s  %s  (%s)", h, c.When.UTC().Format("2006-01-02 15:04"), id, c.Subject, c.who())
}

func (c Commit) who() string {
	var parts []string
	if c.Batch != nil && c.Batch.ApprovedBy != "" {
		parts = append(parts, "approved by "+c.Batch.ApprovedBy)
	}
	if c.Batch != nil && c.Batch.AgentName != "" {
		parts = append(parts, "agent "+c.Batch.AgentName)
	}
	if len(parts) == 0 {
		return "by " + c.Author
	}
	return strings.Join(parts, ", ")
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
	for _, c := range cs {
		mine, err := s.changedSpace(ctx, c)
		if err != nil {
			return nil, err
		}
		if mine {
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
// HEAD along first parents and stopping there: reverting or showing a
// recent batch reads only the commits after it. In a nested space the
// commit must also have changed the space's directory.
func (s *Space) FindBatch(ctx context.Context, id string) (Commit, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return Commit{}, err
	}
	if head != "" {
		h, err := toHash(head)
		if err != nil {
			return Commit{}, err
		}
		c, ok, err := s.store.Find(ctx, h, func(c gitstore.Commit) bool {
			t, ok := ParseTrailers(c.Message)
			return ok && t.BatchID == id
		})
		if err != nil {
			return Commit{}, err
		}
		if ok {
			mine, err := s.changedSpace(ctx, c)
			if err != nil {
				return Commit{}, err
			}
			if mine {
				return toCommit(c), nil
			}
		}
	}
	return Commit{}, &notFoundError{what: "batch " + id}
}

// changedSpace reports whether c changed the space's directory (always, for
// a space at the repository's root).
func (s *Space) changedSpace(ctx context.Context, c gitstore.Commit) (bool, error) {
	if s.prefix == "" {
		return true, nil
	}
	mine, err := s.store.TreeAt(ctx, c.Hash, s.prefix)
	if err != nil {
		return false, err
	}
	var before gitstore.Hash
	if len(c.Parents) > 0 {
		if before, err = s.store.TreeAt(ctx, c.Parents[0], s.prefix); err != nil {
			return false, err
		}
	}
	return mine != before, nil
}

type notFoundError struct{ what string }

func (e *notFoundError) Error() string { return e.what + ": not found" }
func (e *notFoundError) Unwrap() error { return ErrNotFound }
