package wiki

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// InitOptions configures a new space. Zero values: the space is named after
// its directory, owned by agents, authored by "pt", dated now.
type InitOptions struct {
	Name   string
	Owner  string // agent | human
	Author Author
	When   time.Time // the first batch's time; zero reads Clock
	Clock  Clock     // the returned space's clock; nil is the wall clock
	// RootExtra are more files for the first batch, at paths relative to
	// the repository's root: a CI job, which hosts read only there. For a
	// space nested in a repository they land outside the space's folder
	// (reported as "../.github/..."); one already there with the same
	// content is left as it is (another space wrote it), one that differs
	// is refused.
	RootExtra map[string][]byte
	// Guidance writes what coding agents read at the repository's root in
	// the first batch too: the space's section of AGENTS.md, merged into
	// the file there between markers, and the consult-the-kb skill unless
	// a person's version of it is there already (content/guidance).
	Guidance bool
}

// gitignore keeps pt's local state out of commits.
const gitignore = "# pt's local state: never committed\n.pt/\n"

// Init creates a space in dir as one batch: kb.yaml, the hub, the log and a
// .gitignore. dir becomes a new git repository unless it is already inside
// one, in which case the space is added to that repository (several spaces
// may share one). A directory that already holds a space is refused.
//
// An init that fails takes back the directories it made, so that the
// command can be run again as it was.
func Init(ctx context.Context, dir string, opts InitOptions) (_ *Space, _ *Result, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	made, err := mkdirNew(abs)
	if made != "" {
		defer func() {
			if err != nil {
				os.RemoveAll(made)
			}
		}()
	}
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(filepath.Join(abs, content.ConfigFile)); err == nil {
		return nil, nil, fmt.Errorf("init %s: %w", dir, ErrExists)
	}
	st, err := gitstore.Open(ctx, abs)
	if err != nil {
		st, err = gitstore.Init(ctx, abs, gitstore.DefaultBranch)
		if err != nil {
			return nil, nil, fmt.Errorf("init %s: %w", dir, err)
		}
	}
	if st.WorkDir() == "" {
		st.Close()
		return nil, nil, fmt.Errorf("init %s: a bare repository has no work tree to hold a new space; init a clone", dir)
	}
	name := opts.Name
	if name == "" {
		name = filepath.Base(abs)
	}
	cfg := content.Config{Name: name, Owner: opts.Owner, TTL: content.Duration(content.DefaultTTL), SpokeLimit: content.DefaultSpokeLimit,
		Lint: content.LintConfig{Schedule: content.DefaultSchedule}, Reap: content.ReapConfig{Schedule: content.DefaultSchedule}}
	s := &Space{store: st, cfg: cfg, dir: abs}
	s.SetClock(opts.Clock)
	rel, err := filepath.Rel(realPath(st.WorkDir()), realPath(abs))
	if err != nil {
		return nil, nil, err
	}
	if rel != "." {
		s.prefix = filepath.ToSlash(rel) + "/"
	}
	extra := map[string][]byte{}
	for p, data := range opts.RootExtra {
		if old, err := os.ReadFile(filepath.Join(st.WorkDir(), filepath.FromSlash(p))); err == nil && !bytes.Equal(old, data) {
			st.Close()
			return nil, nil, fmt.Errorf("init %s: %s already exists at the repository's root; not overwriting it", dir, p)
		}
		extra[rootClimb(s.prefix)+p] = data
	}
	if opts.Guidance {
		if err := guidanceFiles(st.WorkDir(), s.prefix, name, extra); err != nil {
			st.Close()
			return nil, nil, fmt.Errorf("init %s: %w", dir, err)
		}
	}
	// A space already committed here (kb.yaml deleted from the work tree
	// only) is refused too.
	if head, _ := s.Head(ctx); head != "" {
		if _, _, err := s.ReadFile(ctx, head, content.ConfigFile); err == nil {
			return nil, nil, fmt.Errorf("init %s: %w", dir, ErrExists)
		}
	}
	res, err := s.Apply(ctx, Batch{Kind: KindInit, Title: "create space " + name, Author: opts.Author, When: opts.When},
		func(ctx context.Context, tx *Tx) error {
			if _, err := tx.PutFile(ctx, content.ConfigFile, cfg.Bytes(), RoleConfig); err != nil {
				return err
			}
			if _, err := tx.PutFile(ctx, ".gitignore", []byte(gitignore), RoleConfig); err != nil {
				return err
			}
			if _, err := tx.Put(ctx, HubPath, newHub(name), RoleHub); err != nil {
				return err
			}
			for p, data := range extra {
				if _, err := tx.PutFile(ctx, p, data, RoleConfig); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return s, res, nil
}

// mkdirNew creates dir with its parents and returns the topmost directory
// it had to create ("" when dir existed).
func mkdirNew(dir string) (string, error) {
	made := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		made = d
	}
	return made, os.MkdirAll(dir, 0o755)
}
