package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-billy/v5/osfs"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotFound is returned when a path, object or revision does not exist.
var ErrNotFound = errors.New("not found")

// DefaultBranch is the branch Init points HEAD at when none is given
// (DESIGN.md §4: "main unless the repository already has another").
const DefaultBranch = "main"

// Store is one open repository. It is safe for concurrent use: every access
// to go-git goes through one mutex (a *git.Repository is not safe for
// concurrent use), and writers also serialize on the pt write lock.
type Store struct {
	workDir   string // absolute work tree root; "" when bare
	gitDir    string // this work tree's git dir (HEAD, index)
	commonDir string // objects, refs, config (differs from gitDir in linked worktrees)
	branch    string
	// detachedBase is the commit a detached HEAD points at when the
	// repository has no local branch at all (a CI runner's checkout): it
	// stands for the branch until the branch exists.
	detachedBase Hash
	// insideGitDir is set when the path opened was a git directory itself
	// (a bare repository, or a .git directory reached by mistake).
	insideGitDir bool
	// indexHeld is index.lock, taken before the branch moves and renamed
	// into place right after (landBranch); nil otherwise. Guarded by mu.
	indexHeld *os.File
	// staged is the pack of the commit being landed, whose blobs the work
	// tree is written from; nil between commits. Guarded by mu.
	staged *Pack
	// writeFile writes a work-tree file; nil means writeFileAtomic. Tests
	// set it to fail a write where no small disk can be mounted.
	writeFile func(full string, data []byte, mode uint32) error
	// synced, when set, is told the path of every fsync (fsync.go); tests
	// set it to count a batch's fsyncs. It must be safe for concurrent use.
	synced func(path string)

	mu   sync.Mutex // guards repo, st and the work tree/index update
	repo *gogit.Repository
	// roots and trees cache what commits and trees hold; a hash names its
	// content, so an entry never goes stale.
	roots *rootCache
	trees *treeCache
	zlib  *zlibPools
	objs  objectFiles // reads objects before go-git is asked
	st    *filesystem.Storage

	writeSem    chan struct{} // in-process half of the write lock
	sectionHeld atomic.Bool   // a goroutine holds Lock
	flockMu     sync.Mutex
	flockCount  int
	flockFile   *os.File
}

// Init creates a non-bare repository at dir whose HEAD points to
// refs/heads/<branch> (DefaultBranch when branch is ""). When dir already is
// a repository (it has .git, or is a bare repository) Init opens it instead
// and keeps its branch. Init never looks above dir: a caller that wants to
// reuse an enclosing repository calls Open first.
func Init(ctx context.Context, dir string, branch string) (*Store, error) {
	if branch == "" {
		branch = DefaultBranch
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("gitstore: init %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil || isBareRepo(abs) {
		return Open(ctx, abs)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("gitstore: init %s: %w", dir, err)
	}
	_, err = gogit.PlainInitWithOptions(abs, &gogit.PlainInitOptions{
		InitOptions: gogit.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(branch)},
	})
	if err != nil {
		return nil, fmt.Errorf("gitstore: init %s: %w", dir, err)
	}
	return Open(ctx, abs)
}

// Open opens the repository at or above path: a work tree with a .git
// directory, a .git file (linked worktree, submodule), or a bare repository.
// It finishes a work-tree update left pending by a process that died.
func Open(ctx context.Context, path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("gitstore: open %s: %w", path, err)
	}
	s := &Store{writeSem: make(chan struct{}, 1), roots: newRootCache(), trees: newTreeCache(), zlib: newZlibPools()}
	if err := s.discover(abs); err != nil {
		return nil, err
	}
	if err := s.readConfig(); err != nil {
		return nil, err
	}
	s.objs.objects = s.objectsDir()
	fs := dotgit.NewRepositoryFilesystem(osfs.New(s.gitDir), idxReadFS{osfs.New(s.commonDir)})
	s.st = filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	s.repo, err = gogit.Open(s.st, nil)
	if err != nil {
		return nil, fmt.Errorf("gitstore: open %s: %w", path, err)
	}
	target, err := s.headTarget()
	if err != nil {
		return nil, err
	}
	s.branch = DefaultBranch
	if b, ok := strings.CutPrefix(target, "refs/heads/"); ok {
		s.branch = b
	} else if err := s.adoptDetached(); err != nil {
		return nil, err
	}
	if err := s.finishPending(ctx); err != nil {
		return nil, err
	}
	s.clearStaleRefLock(ctx)
	return s, nil
}

// discover walks up from abs to the first repository.
func (s *Store) discover(abs string) error {
	for dir := abs; ; {
		dotgit := filepath.Join(dir, ".git")
		fi, err := os.Stat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			s.workDir, s.gitDir = dir, dotgit
			return s.findCommonDir()
		case err == nil:
			gd, err := readGitFile(dotgit)
			if err != nil {
				return err
			}
			s.workDir, s.gitDir = dir, gd
			return s.findCommonDir()
		}
		if isBareRepo(dir) {
			s.gitDir, s.insideGitDir = dir, true
			return s.findCommonDir()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("gitstore: no git repository here or above: %w", ErrNotFound)
		}
		dir = parent
	}
}

// readGitFile follows a "gitdir: <path>" file.
func readGitFile(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("gitstore: read %s: %w", p, err)
	}
	gd, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("gitstore: %s: not a gitdir file", p)
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(p), gd)
	}
	return filepath.Clean(gd), nil
}

func (s *Store) findCommonDir() error {
	s.commonDir = s.gitDir
	data, err := os.ReadFile(filepath.Join(s.gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gitstore: read commondir: %w", err)
	}
	cd := strings.TrimSpace(string(data))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(s.gitDir, cd)
	}
	s.commonDir = filepath.Clean(cd)
	return nil
}

// isBareRepo recognises a git directory by what git itself checks.
func isBareRepo(dir string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	return true
}

// readConfig applies the settings pt must honour: core.bare (no work tree to
// keep in step) and the object format (go-git and pt write SHA-1 only).
func (s *Store) readConfig() error {
	data, err := os.ReadFile(filepath.Join(s.commonDir, "config"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("gitstore: read config: %w", err)
	}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.ToLower(strings.Trim(line, "[] \t"))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
		switch {
		case section == "core" && k == "bare" && v == "true" && s.gitDir == s.commonDir:
			s.workDir = ""
		case section == "core" && k == "bare" && v == "false" && s.insideGitDir:
			// Found as a git directory, but the repository has a work tree
			// (the path is its .git or below): writing here would leave
			// that work tree behind the branch.
			return fmt.Errorf("%s is the git directory of a repository with a work tree; pass the work tree's folder instead", s.gitDir)
		case section == "extensions" && k == "objectformat" && v != "sha1":
			return fmt.Errorf("gitstore: object format %s is not supported", v)
		}
	}
	return nil
}

// WorkDir returns the absolute root of the work tree, "" for a bare
// repository: where pt keeps checked-out files in step with the branch.
func (s *Store) WorkDir() string { return s.workDir }

// GitDir returns the absolute git directory of this work tree. Derived data
// (indexes, caches) lives under GitDir()/pt/, never in the work tree.
func (s *Store) GitDir() string { return s.gitDir }

// Branch returns the short name of the branch pt writes: the one HEAD points
// to, or DefaultBranch when HEAD is detached.
func (s *Store) Branch() string { return s.branch }

// Close releases the store's resources. A Store holding Lock must unlock
// first.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Close()
}
