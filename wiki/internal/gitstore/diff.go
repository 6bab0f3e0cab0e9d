package gitstore

import (
	"context"
)

// FileChange is a file that differs between two commits; From or To is the
// zero Hash when the file is absent on that side.
type FileChange struct {
	Path     string
	From, To Hash
}

// Diff returns the files whose content differs between the trees of from and
// to (from may be zero: the empty tree), sorted by path. Identical subtrees
// are skipped by hash, so the cost follows the size of the change, not of the
// repository: this is what keeps derived indexes incremental. Mode-only
// changes are not reported; submodules are ignored.
func (s *Store) Diff(ctx context.Context, from, to Hash) ([]FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, _, err := s.diffLocked(ctx, from, to)
	return out, err
}

// diffLocked is Diff for a caller that holds s.mu; it also returns the tree
// of to.
func (s *Store) diffLocked(ctx context.Context, from, to Hash) ([]FileChange, Hash, error) {
	a, err := s.commitTree(from)
	if err != nil {
		return nil, Hash{}, err
	}
	b, err := s.commitTree(to)
	if err != nil {
		return nil, Hash{}, err
	}
	var out []FileChange
	err = s.diffTrees(ctx, a, b, "", &out)
	return out, b, err
}

// diffTrees merges two sorted entry lists. A name that is a file on one side
// and a directory on the other is a deleted file plus added files (or the
// reverse); git tree order lists them apart ("a" before "a.b" before "a/"),
// so they are matched by name and kind, not by position.
func (s *Store) diffTrees(ctx context.Context, a, b Hash, dir string, out *[]FileChange) error {
	if a == b {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ea, err := s.readTree(a)
	if err != nil {
		return err
	}
	eb, err := s.readTree(b)
	if err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var x, y *treeEntry
		switch {
		case j == len(eb):
			x = &ea[i]
			i++
		case i == len(ea):
			y = &eb[j]
			j++
		case ea[i].name == eb[j].name && ea[i].isTree() == eb[j].isTree():
			x, y = &ea[i], &eb[j]
			i++
			j++
		case treeLess(ea[i], eb[j]):
			x = &ea[i]
			i++
		default:
			y = &eb[j]
			j++
		}
		if err := s.diffEntry(ctx, x, y, dir, out); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) diffEntry(ctx context.Context, x, y *treeEntry, dir string, out *[]FileChange) error {
	var name string
	var ta, tb, fa, fb Hash
	for _, e := range []*treeEntry{x, y} {
		if e != nil {
			name = e.name
		}
	}
	if x != nil {
		if x.isTree() {
			ta = x.hash
		} else if x.mode != modeGitlink {
			fa = x.hash
		}
	}
	if y != nil {
		if y.isTree() {
			tb = y.hash
		} else if y.mode != modeGitlink {
			fb = y.hash
		}
	}
	if fa == fb && ta == tb {
		return nil // unchanged: most entries of a large folder
	}
	p := join(dir, name)
	if fa != fb {
		*out = append(*out, FileChange{Path: p, From: fa, To: fb})
	}
	if ta != tb {
		return s.diffTrees(ctx, ta, tb, p, out)
	}
	return nil
}
