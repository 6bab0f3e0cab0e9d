package wiki

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Errors callers branch on.
var (
	ErrNotFound = gitstore.ErrNotFound
	ErrNoSpace  = errors.New("no pt space here (no kb.yaml at or above this directory; run pt init, or pass --kb)")
	ErrExists   = errors.New("a space already exists here")
	ErrConflict = errors.New("conflict")
)

// ConflictError lists the paths that a later commit changed, when a batch or
// a revert would otherwise overwrite them.
type ConflictError struct {
	Op    string
	Paths []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s: conflict: changed by a later commit: %s", e.Op, strings.Join(e.Paths, ", "))
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Space is a pt space: a directory of a git repository whose root holds
// kb.yaml. It is safe for concurrent use; writes serialize on the
// repository's write lock.
type Space struct {
	store  *gitstore.Store
	prefix string // the space's directory relative to the repository root: "" or "kb/"
	dir    string // absolute space directory in the work tree; "" when bare
	cfg    content.Config
	// afterCommit is the hook SetAfterCommit installs (nil for none).
	afterCommit atomic.Pointer[func(*Result)]
	// clock is the clock SetClock installs (nil for the wall clock).
	clock atomic.Pointer[Clock]
	// memo holds what Memo keeps for the Space's lifetime.
	memo memo
}

// Open opens the space rooted at dir (a directory holding kb.yaml in the
// work tree or at HEAD). dir may also be a bare repository, whose root is
// the space. It first finishes a batch whose work tree a process left
// incomplete (killed, or out of disk), and fails with ErrWorktreeIncomplete
// when it still cannot.
func Open(ctx context.Context, dir string) (*Space, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := gitstore.Open(ctx, abs)
	if errors.Is(err, ErrWorktreeIncomplete) {
		return nil, fmt.Errorf("open %s: finishing the last batch: %w; git commits wait until a pt command can write the missing files", dir, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	s := &Space{store: st}
	if wd := st.WorkDir(); wd != "" {
		rel, err := filepath.Rel(realPath(wd), realPath(abs))
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("open %s: not inside the repository at %s", dir, wd)
		}
		if rel != "." {
			s.prefix = filepath.ToSlash(rel) + "/"
		}
		s.dir = abs
	}
	if err := s.loadConfig(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return s, nil
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func (s *Space) loadConfig(ctx context.Context) error {
	head, err := s.store.Head(ctx)
	if err != nil {
		return err
	}
	var data []byte
	if !head.IsZero() {
		data, _, err = s.store.ReadFile(ctx, head, s.prefix+content.ConfigFile)
	}
	if head.IsZero() || errors.Is(err, gitstore.ErrNotFound) {
		// Not committed yet: a kb.yaml in the work tree still marks the space.
		if s.dir == "" {
			return ErrNoSpace
		}
		data, err = os.ReadFile(filepath.Join(s.dir, content.ConfigFile))
		if err != nil {
			return ErrNoSpace
		}
	} else if err != nil {
		return err
	}
	cfg, err := content.ParseConfig(data)
	if err != nil {
		return err
	}
	s.cfg = cfg
	return nil
}

// Find returns the space directory for a command started in dir: the
// nearest directory at or above dir holding kb.yaml.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, content.ConfigFile)); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", ErrNoSpace
		}
	}
}

// Close releases the repository.
func (s *Space) Close() error { return s.store.Close() }

// Config is the space's kb.yaml as of when it was opened.
func (s *Space) Config() content.Config { return s.cfg }

// Dir is the space's directory in the work tree ("" for a bare repository).
func (s *Space) Dir() string { return s.dir }

// WorkDir is the root of the repository's work tree ("" for a bare
// repository): where paths relative to the repository start.
func (s *Space) WorkDir() string { return s.store.WorkDir() }

// Prefix is the space's directory relative to the repository root.
func (s *Space) Prefix() string { return s.prefix }

// GitDir is the repository's git directory; derived data lives under
// GitDir()/pt.
func (s *Space) GitDir() string { return s.store.GitDir() }

// StateDir is where derived, never-committed data of this space lives
// (indexes, caches, token hashes), one directory per space of a repository.
func (s *Space) StateDir() string {
	key := strings.TrimSuffix(s.prefix, "/")
	if key == "" {
		key = "_root"
	}
	return filepath.Join(s.store.GitDir(), "pt", "spaces", strings.ReplaceAll(key, "/", "%"))
}

// Branch is the branch batches are written to.
func (s *Space) Branch() string { return s.store.Branch() }

// repoPath turns a space-relative path into a repository path. A path
// that climbs exactly to the repository's root ("../../.github/..." in a
// space two folders deep, the CI job Init writes for a nested space) names
// that root-level path; any other climb stays as it is, and the store
// refuses it. Page paths never climb: content.CleanPath refuses "..".
func (s *Space) repoPath(p string) string {
	if up := rootClimb(s.prefix); up != "" && strings.HasPrefix(p, up) && !strings.HasPrefix(p[len(up):], "../") {
		return p[len(up):]
	}
	return s.prefix + p
}

// rootClimb is the relative path from a space's folder to the repository's
// root: "../" per folder of prefix.
func rootClimb(prefix string) string { return strings.Repeat("../", strings.Count(prefix, "/")) }

// spacePath turns a repository path into a space-relative one; ok is false
// for paths outside the space.
func (s *Space) spacePath(p string) (string, bool) {
	if !strings.HasPrefix(p, s.prefix) {
		return "", false
	}
	return p[len(s.prefix):], true
}

// GitUser returns the user.name and user.email that git would record for a
// commit made in dir (repository config over global), so that batches a
// person runs from the CLI carry the same identity as their own commits.
func GitUser(dir string) (name, email string) { return gitstore.User(dir) }
