package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Ref returns the commit a ref other than the branch points at; the zero
// hash when there is no such ref.
func (s *Store) Ref(ctx context.Context, name string) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	return s.readRefFile(name)
}

// Refs lists the refs whose names start with prefix (refs/heads/pt/), loose
// and packed, with the commits they point at.
func (s *Store) Refs(ctx context.Context, prefix string) (map[string]Hash, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := map[string]Hash{}
	if err := s.packedRefs(func(name string, h Hash) {
		if strings.HasPrefix(name, prefix) {
			out[name] = h
		}
	}); err != nil {
		return nil, err
	}
	dir := filepath.Join(s.commonDir, filepath.FromSlash(prefix[:strings.LastIndex(prefix, "/")+1]))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".lock") {
			return nil
		}
		rel, err := filepath.Rel(s.commonDir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) {
			return nil
		}
		h, err := s.readRefFile(name)
		if err == nil && !h.IsZero() {
			out[name] = h
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gitstore: list %s: %w", prefix, err)
	}
	return out, nil
}

// packedRefs calls fn for each ref of packed-refs.
func (s *Store) packedRefs(fn func(name string, h Hash)) error {
	data, err := os.ReadFile(filepath.Join(s.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gitstore: read packed-refs: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' || line[40] != ' ' {
			continue
		}
		if h, err := ParseHash(line[:40]); err == nil {
			fn(line[41:], h)
		}
	}
	return sc.Err()
}

// DeleteRef removes a ref other than the branch when it still points at
// old (ErrStale otherwise), from its loose file and from packed-refs, each
// under git's lock-file protocol. A ref that is already gone is no error.
func (s *Store) DeleteRef(ctx context.Context, name string, old Hash) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !strings.HasPrefix(name, "refs/") || name == s.refName() || validPath(name) != nil {
		return fmt.Errorf("gitstore: delete ref %q: not a ref pt may delete", name)
	}
	refPath := filepath.Join(s.commonDir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(refPath), 0o755); err != nil {
		return fmt.Errorf("gitstore: delete %s: %w", name, err)
	}
	lock, err := createLockFile(refPath + ".lock")
	if err != nil {
		return fmt.Errorf("gitstore: delete %s: %w", name, err)
	}
	defer func() {
		lock.Close()
		os.Remove(refPath + ".lock")
	}()
	cur, err := s.readRefFile(name)
	if err != nil {
		return err
	}
	if cur.IsZero() {
		return nil
	}
	if cur != old {
		return fmt.Errorf("gitstore: delete %s: at %s, expected %s: %w", name, short(cur), short(old), ErrStale)
	}
	if err := s.dropPacked(name); err != nil {
		return err
	}
	if err := os.Remove(refPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gitstore: delete %s: %w", name, err)
	}
	return s.fsyncDir(filepath.Dir(refPath))
}

// dropPacked rewrites packed-refs without name (and its peeled line).
func (s *Store) dropPacked(name string) error {
	packed := filepath.Join(s.commonDir, "packed-refs")
	data, err := os.ReadFile(packed)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gitstore: read packed-refs: %w", err)
	}
	var out bytes.Buffer
	dropped, skipPeel := false, false
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case skipPeel && strings.HasPrefix(line, "^"):
			continue
		case len(line) > 41 && line[40] == ' ' && strings.TrimRight(line[41:], "\n") == name:
			dropped, skipPeel = true, true
			continue
		}
		skipPeel = false
		out.WriteString(line)
	}
	if !dropped {
		return nil
	}
	lock, err := createLockFile(packed + ".lock")
	if err != nil {
		return fmt.Errorf("gitstore: update packed-refs: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			lock.Close()
			os.Remove(packed + ".lock")
		}
	}()
	if _, err := lock.Write(out.Bytes()); err != nil {
		return fmt.Errorf("gitstore: update packed-refs: %w", err)
	}
	if err := s.fsync(lock); err != nil {
		return fmt.Errorf("gitstore: update packed-refs: %w", err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("gitstore: update packed-refs: %w", err)
	}
	if err := replaceFile(packed+".lock", packed); err != nil {
		return fmt.Errorf("gitstore: update packed-refs: %w", err)
	}
	ok = true
	return nil
}
