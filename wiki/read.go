package wiki

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Rev is a commit hash in hex. The zero Rev ("") means "no commit yet".
type Rev string

// PageAt is a page as it is at one commit: its parsed form, its bytes and
// the blob id that every citation pins.
type PageAt struct {
	Path     string        `json:"path"`
	Revision string        `json:"revision"`
	Page     *content.Page `json:"-"`
	Raw      []byte        `json:"-"`
}

// Entry is a file of the space at a commit.
type Entry struct {
	Path string `json:"path"`
	Blob string `json:"blob"`
}

// FileChange is a file that differs between two commits.
type FileChange struct {
	Path string `json:"path"`
	From string `json:"from,omitempty"` // blob before; "" when added
	To   string `json:"to,omitempty"`   // blob after; "" when deleted
}

func toHash(r Rev) (gitstore.Hash, error) {
	if r == "" {
		return gitstore.Hash{}, nil
	}
	return gitstore.ParseHash(string(r))
}

// Head returns the commit the branch is at ("" for an empty repository).
func (s *Space) Head(ctx context.Context) (Rev, error) {
	h, err := s.store.Head(ctx)
	if err != nil || h.IsZero() {
		return "", err
	}
	return Rev(h.String()), nil
}

// Resolve turns a revision expression (HEAD, HEAD~2, a hash, a branch, a
// tag) or a batch id as pt log prints it (b-20261129-7f3a: the commit that
// batch made, wherever a sync moved it) into a commit, so that every --rev,
// --since and --until means the same.
func (s *Space) Resolve(ctx context.Context, rev string) (Rev, error) {
	if rev == "" || rev == "HEAD" {
		return s.Head(ctx)
	}
	h, err := s.store.Resolve(ctx, rev)
	if errors.Is(err, ErrNotFound) && strings.HasPrefix(rev, "b-") {
		if c, ferr := s.FindBatch(ctx, rev); ferr == nil {
			return Rev(c.Hash), nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("revision %q: %w", rev, err)
	}
	return Rev(h.String()), nil
}

// ReadFile returns a file of the space at commit rev and its blob id.
func (s *Space) ReadFile(ctx context.Context, rev Rev, p string) ([]byte, string, error) {
	h, err := toHash(rev)
	if err != nil {
		return nil, "", err
	}
	if h.IsZero() {
		return nil, "", fmt.Errorf("%s: %w", p, ErrNotFound)
	}
	data, blob, err := s.store.ReadFile(ctx, h, s.repoPath(p))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	return data, blob.String(), nil
}

// ReadPage reads and parses a page at commit rev.
func (s *Space) ReadPage(ctx context.Context, rev Rev, p string) (*PageAt, error) {
	data, blob, err := s.ReadFile(ctx, rev, p)
	if err != nil {
		return nil, err
	}
	pg, err := content.Parse(p, data)
	if err != nil {
		return nil, err
	}
	return &PageAt{Path: p, Revision: blob, Page: pg, Raw: data}, nil
}

// ReadBlob returns the content of a blob by id.
func (s *Space) ReadBlob(ctx context.Context, blob string) ([]byte, error) {
	h, err := gitstore.ParseHash(blob)
	if err != nil {
		return nil, err
	}
	return s.store.ReadBlob(ctx, h)
}

// ReadBlobs calls fn with the content of each blob of blobs (i its index
// there), each once, in the order the repository stores them, which is
// not the order given: reading the pages of a space of 100,000 this way
// took a fifth of the CPU of reading them one by one with ReadBlob. data
// is fn's to keep. It stops at fn's first error and returns it.
func (s *Space) ReadBlobs(ctx context.Context, blobs []string, fn func(i int, data []byte) error) error {
	hs := make([]gitstore.Hash, len(blobs))
	for i, b := range blobs {
		h, err := gitstore.ParseHash(b)
		if err != nil {
			return err
		}
		hs[i] = h
	}
	return s.store.ReadBlobs(ctx, hs, fn)
}

// List returns the files of the space under dir ("" for all) at rev, sorted.
func (s *Space) List(ctx context.Context, rev Rev, dir string) ([]Entry, error) {
	h, err := toHash(rev)
	if err != nil || h.IsZero() {
		return nil, err
	}
	prefix := s.prefix + dir
	es, err := s.store.List(ctx, h, strings.TrimSuffix(prefix, "/"))
	if err != nil {
		if errors.Is(err, gitstore.ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	out := make([]Entry, 0, len(es))
	for _, e := range es {
		if p, ok := s.spacePath(e.Path); ok {
			out = append(out, Entry{Path: p, Blob: e.Blob.String()})
		}
	}
	if roots := nestedRoots(out); len(roots) > 0 {
		mine := out[:0]
		for _, e := range out {
			if !underAny(e.Path, roots) {
				mine = append(mine, e)
			}
		}
		out = mine
	}
	return out, nil
}

// Pages lists the Markdown pages of the space at rev, without the files pt
// keeps beside them (kb.yaml, .gitignore, findings data, AGENTS.md).
func (s *Space) Pages(ctx context.Context, rev Rev) ([]Entry, error) {
	all, err := s.List(ctx, rev, "")
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, e := range all {
		if strings.HasSuffix(strings.ToLower(e.Path), ".md") && !strings.HasPrefix(e.Path, ".") && !strings.Contains(e.Path, "/.") && !IsGuidance(e.Path) {
			out = append(out, e)
		}
	}
	return out, nil
}

// Diff returns the files of the space that differ between two commits
// (from may be "" for the empty tree).
func (s *Space) Diff(ctx context.Context, from, to Rev) ([]FileChange, error) {
	a, err := toHash(from)
	if err != nil {
		return nil, err
	}
	b, err := toHash(to)
	if err != nil {
		return nil, err
	}
	cs, err := s.store.Diff(ctx, a, b)
	if err != nil {
		return nil, err
	}
	before := &nestedAt{s: s, commit: a, known: map[string]bool{}}
	after := &nestedAt{s: s, commit: b, known: map[string]bool{}}
	var out []FileChange
	changed := map[string]bool{}
	var moved []FileChange // kb.yaml of a nested space, added or removed
	for _, c := range cs {
		p, ok := s.spacePath(c.Path)
		if !ok {
			continue
		}
		changed[p] = true
		fc := FileChange{Path: p}
		if !c.From.IsZero() {
			fc.From = c.From.String()
		}
		if !c.To.IsZero() {
			fc.To = c.To.String()
		}
		if path.Base(p) == content.ConfigFile && p != content.ConfigFile && (fc.From == "") != (fc.To == "") {
			moved = append(moved, fc)
		}
		if fc, err = s.ownChange(ctx, fc, before, after); err != nil {
			return nil, err
		}
		if fc.From != "" || fc.To != "" {
			out = append(out, fc)
		}
	}
	// A kb.yaml added to a folder takes its unchanged files out of this
	// space; one removed brings them in.
	for _, m := range moved {
		rev, gone := a, m.From == "" // added: its files were this space's before
		if !gone {
			rev = b
		}
		es, err := s.List(ctx, Rev(rev.String()), path.Dir(m.Path))
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if changed[e.Path] {
				continue
			}
			changed[e.Path] = true
			fc := FileChange{Path: e.Path, From: e.Blob, To: e.Blob}
			if gone {
				fc.To = ""
			} else {
				fc.From = ""
			}
			if fc, err = s.ownChange(ctx, fc, before, after); err != nil {
				return nil, err
			}
			if fc.From != "" || fc.To != "" {
				out = append(out, fc)
			}
		}
	}
	return out, nil
}

// ownChange keeps of a change only the sides at which the file was this
// space's own, not a nested space's.
func (s *Space) ownChange(ctx context.Context, fc FileChange, before, after *nestedAt) (FileChange, error) {
	for _, side := range []struct {
		blob *string
		at   *nestedAt
	}{{&fc.From, before}, {&fc.To, after}} {
		if *side.blob == "" {
			continue
		}
		in, err := side.at.in(ctx, fc.Path)
		if err != nil {
			return fc, err
		}
		if in {
			*side.blob = ""
		}
	}
	return fc, nil
}
