package gitstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	gitobject "github.com/go-git/go-git/v5/plumbing/object"
)

// Signature is who did something and when. The time is an input (never
// read from the clock inside gitstore when given) so tests can assert exact
// hashes; its zone is kept in the commit.
type Signature struct {
	Name, Email string
	When        time.Time
}

// Commit is a commit as pt reads it back: the log page and revert need the
// parents, the author and the message (with its Batch-Id trailers).
type Commit struct {
	Hash      Hash
	Tree      Hash
	Parents   []Hash
	Author    Signature
	Committer Signature
	Message   string
}

// CommitInfo reads one commit.
func (s *Store) CommitInfo(ctx context.Context, h Hash) (Commit, error) {
	if err := ctx.Err(); err != nil {
		return Commit{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commitInfo(h)
}

func (s *Store) commitInfo(h Hash) (Commit, error) {
	data, err := s.readTyped(h, commitObject)
	if err != nil {
		return Commit{}, err
	}
	return decodeCommit(h, data)
}

// decodeCommit parses a raw commit with go-git's decoder.
func decodeCommit(h Hash, data []byte) (Commit, error) {
	var c gitobject.Commit
	o := &plumbing.MemoryObject{}
	o.SetType(plumbing.CommitObject)
	o.Write(data)
	if err := c.Decode(o); err != nil {
		return Commit{}, fmt.Errorf("gitstore: decode commit %s: %w", h, err)
	}
	out := Commit{
		Hash:      h,
		Tree:      Hash(c.TreeHash),
		Author:    Signature{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When},
		Committer: Signature{Name: c.Committer.Name, Email: c.Committer.Email, When: c.Committer.When},
		Message:   c.Message,
	}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, Hash(p))
	}
	return out, nil
}

// Log walks first parents from `from`, newest first, returning at most max
// commits (max <= 0: all). First-parent because pt's history is a chain of
// batches; merges made with git are shown as one step.
func (s *Store) Log(ctx context.Context, from Hash, max int) ([]Commit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Commit
	for h := from; !h.IsZero() && (max <= 0 || len(out) < max); {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		c, err := s.commitInfo(h)
		if err != nil {
			return out, err
		}
		out = append(out, c)
		h = Hash{}
		if len(c.Parents) > 0 {
			h = c.Parents[0]
		}
	}
	return out, nil
}

// Find walks first parents back from from, newest first, and returns the
// first commit match accepts; ok is false when none does. It reads only as
// far back as it must: finding a recent commit costs the commits after it.
func (s *Store) Find(ctx context.Context, from Hash, match func(Commit) bool) (c Commit, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h := from; !h.IsZero(); {
		if err := ctx.Err(); err != nil {
			return Commit{}, false, err
		}
		c, err := s.commitInfo(h)
		if err != nil {
			return Commit{}, false, err
		}
		if match(c) {
			return c, true, nil
		}
		h = Hash{}
		if len(c.Parents) > 0 {
			h = c.Parents[0]
		}
	}
	return Commit{}, false, nil
}

// encodeCommit writes a commit object the way git does. A message gets a
// final newline, as `git commit` gives it.
func encodeCommit(tree Hash, parents []Hash, author, committer Signature, msg string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", formatIdent(author), formatIdent(committer))
	b.WriteString(msg)
	if msg != "" && !strings.HasSuffix(msg, "\n") {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// formatIdent is "Name <email> 1700000000 +0100".
func formatIdent(sig Signature) string {
	_, off := sig.When.Zone()
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s <%s> %d %c%02d%02d", sig.Name, sig.Email, sig.When.Unix(), sign, off/3600, off%3600/60)
}
