package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Entry is a file in a tree.
type Entry struct {
	Path string
	Blob Hash
}

// Head returns the tip of Branch, or the zero Hash and a nil error when the
// branch is unborn (no commit yet): callers pass it as CommitRequest.Parent.
func (s *Store) Head(ctx context.Context) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	return s.readRef(s.refName())
}

// Resolve turns a revision as git spells it ("HEAD", a branch, a full or
// abbreviated hash, "HEAD~2", "main^") into a commit hash, so that the CLI's
// --rev flags mean what they mean to git.
func (s *Store) Resolve(ctx context.Context, rev string) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.repo.ResolveRevision(plumbing.Revision(rev))
	if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		s.st.Reindex()
		h, err = s.repo.ResolveRevision(plumbing.Revision(rev))
	}
	if err != nil {
		// go-git says io.EOF for a walk past the root commit ("HEAD~100").
		if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) || errors.Is(err, io.EOF) {
			return Hash{}, fmt.Errorf("gitstore: resolve %q: no such commit: %w", rev, ErrNotFound)
		}
		return Hash{}, fmt.Errorf("gitstore: resolve %q: %w", rev, err)
	}
	return s.peelToCommit(Hash(*h))
}

// peelToCommit follows annotated tags. The caller holds s.mu.
func (s *Store) peelToCommit(h Hash) (Hash, error) {
	for range 10 {
		t, data, err := s.readObject(h)
		if err != nil {
			return Hash{}, err
		}
		switch t {
		case commitObject:
			return h, nil
		case "tag":
			obj, _, _ := strings.Cut(string(data), "\n")
			x, ok := strings.CutPrefix(obj, "object ")
			if !ok {
				return Hash{}, fmt.Errorf("gitstore: malformed tag %s", h)
			}
			if h, err = ParseHash(x); err != nil {
				return Hash{}, err
			}
		default:
			return Hash{}, fmt.Errorf("gitstore: %s is a %s, not a commit: %w", h, t, ErrNotFound)
		}
	}
	return Hash{}, fmt.Errorf("gitstore: tag chain too long at %s", h)
}

// commitTree returns the root tree of a commit; zero commit means the empty
// tree. The caller holds s.mu.
func (s *Store) commitTree(c Hash) (Hash, error) {
	if c.IsZero() {
		return Hash{}, nil
	}
	if t, ok := s.roots.get(c); ok {
		return t, nil
	}
	data, err := s.readTyped(c, commitObject)
	if err != nil {
		return Hash{}, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	x, ok := strings.CutPrefix(line, "tree ")
	if !ok {
		return Hash{}, fmt.Errorf("gitstore: malformed commit %s", c)
	}
	t, err := ParseHash(x)
	if err == nil {
		s.roots.put(c, t)
	}
	return t, err
}

// rootCache maps commits to their root trees. A commit's hash names its
// content, so the mapping never changes; every read at a revision starts
// with it, and reading the commit object costs a file open at least.
type rootCache struct {
	mu sync.Mutex
	m  map[Hash]Hash
}

// rootCacheSize bounds rootCache; it is emptied when full (the commits in
// use are few: the head and the revisions a request names).
const rootCacheSize = 4096

func newRootCache() *rootCache { return &rootCache{m: map[Hash]Hash{}} }

func (c *rootCache) get(commit Hash) (Hash, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[commit]
	return t, ok
}

func (c *rootCache) put(commit, tree Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= rootCacheSize {
		clear(c.m)
	}
	c.m[commit] = tree
}

// ReadFile returns the content and blob id of path at commit. It returns
// ErrNotFound when the path is absent or is a directory.
func (s *Store) ReadFile(ctx context.Context, commit Hash, path string) (data []byte, blob Hash, err error) {
	blob, err = s.BlobOf(ctx, commit, path)
	if err != nil {
		return nil, Hash{}, err
	}
	data, err = s.ReadBlob(ctx, blob)
	return data, blob, err
}

// BlobOf returns the blob id of path at commit without reading the content:
// what provenance pins and what change detection compares.
func (s *Store) BlobOf(ctx context.Context, commit Hash, path string) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := s.commitTree(commit)
	if err != nil {
		return Hash{}, err
	}
	e, ok, err := s.lookup(root, strings.Trim(path, "/"))
	if err != nil {
		return Hash{}, err
	}
	if !ok || e.isTree() || e.mode == modeGitlink {
		return Hash{}, fmt.Errorf("gitstore: %s at %s: %w", path, short(commit), ErrNotFound)
	}
	return e.hash, nil
}

// IsSymlink reports whether path at commit is a symbolic link (a blob of
// mode 120000, whose content is the link's target, not a file's).
func (s *Store) IsSymlink(ctx context.Context, commit Hash, path string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := s.commitTree(commit)
	if err != nil {
		return false, err
	}
	e, ok, err := s.lookup(root, strings.Trim(path, "/"))
	return ok && e.mode == modeSymlink, err
}

// ReadBlob returns a blob's content.
func (s *Store) ReadBlob(ctx context.Context, blob Hash) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readTyped(blob, blobObject)
}

// List returns every file (blob, including symlinks; not submodules) under
// the directory prefix at commit, sorted by path. prefix "" lists the whole
// tree; a prefix that does not exist gives an empty list. Only the trees
// under prefix are read.
func (s *Store) List(ctx context.Context, commit Hash, prefix string) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := s.commitTree(commit)
	if err != nil {
		return nil, err
	}
	prefix = strings.Trim(prefix, "/")
	start := treeEntry{mode: modeTree, hash: root}
	if prefix != "" {
		e, ok, err := s.lookup(root, prefix)
		if err != nil || !ok {
			return nil, err
		}
		if !e.isTree() {
			if e.mode == modeGitlink {
				return nil, nil
			}
			return []Entry{{Path: prefix, Blob: e.hash}}, nil
		}
		start = e
	}
	var out []Entry
	err = s.walk(ctx, start.hash, prefix, func(p string, e treeEntry) {
		out = append(out, Entry{Path: p, Blob: e.hash})
	})
	return out, err
}

// walk calls fn for every blob under tree in git tree order, which for full
// paths is bytewise path order. The caller holds s.mu.
func (s *Store) walk(ctx context.Context, tree Hash, dir string, fn func(string, treeEntry)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := s.readTree(tree)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := join(dir, e.name)
		switch {
		case e.isTree():
			if err := s.walk(ctx, e.hash, p, fn); err != nil {
				return err
			}
		case e.mode == modeGitlink:
		default:
			fn(p, e)
		}
	}
	return nil
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// TreeAt returns the id of the directory path in the tree of commit (zero
// when it does not exist there): two commits that leave a directory alone
// have the same id for it, so callers tell which commits touched a space
// without diffing whole trees.
func (s *Store) TreeAt(ctx context.Context, commit Hash, path string) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	root, err := s.commitTree(commit)
	if err != nil {
		return Hash{}, err
	}
	path = strings.Trim(path, "/")
	if path == "" {
		return root, nil
	}
	e, ok, err := s.lookup(root, path)
	if err != nil || !ok || !e.isTree() {
		return Hash{}, err
	}
	return e.hash, nil
}
