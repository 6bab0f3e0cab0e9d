package wiki

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// SpaceDirs lists the spaces of the repository that holds dir: the
// directory of every kb.yaml in the tree at HEAD, as work-tree paths (the
// repository root for a bare repository, whose only space is its root).
// Commands that act on every space (pt lint --all) open each with Open.
func SpaceDirs(ctx context.Context, dir string) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := gitstore.Open(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer st.Close()
	head, err := st.Head(ctx)
	if err != nil || head.IsZero() {
		return nil, err
	}
	es, err := st.List(ctx, head, "")
	if err != nil {
		return nil, err
	}
	root := st.WorkDir()
	if root == "" {
		root = st.GitDir()
	}
	var out []string
	for _, e := range es {
		if path.Base(e.Path) != content.ConfigFile {
			continue
		}
		d := path.Dir(e.Path)
		if st.WorkDir() == "" && d != "." {
			continue // a bare repository's nested spaces have no directory to open
		}
		out = append(out, filepath.Join(root, filepath.FromSlash(d)))
	}
	return out, nil
}

// spaceOf returns the space that holds repository path p at commit: the
// nearest folder above p with a kb.yaml. It is s itself when that is s's
// folder, and otherwise a view of the other space on the same repository,
// configured by its kb.yaml at onto (pt sync rebuilds each batch with the
// space it was written in, on the remote's branch). It is nil when that
// space is gone from onto: the batch cannot be rebuilt as a space's.
func (s *Space) spaceOf(ctx context.Context, commit, onto gitstore.Hash, p string) (*Space, error) {
	for d := path.Dir(p); ; d = path.Dir(d) {
		prefix := ""
		if d != "." && d != "/" {
			prefix = d + "/"
		}
		_, err := s.store.BlobOf(ctx, commit, prefix+content.ConfigFile)
		switch {
		case err == nil:
			data, _, err := s.store.ReadFile(ctx, onto, prefix+content.ConfigFile)
			if errors.Is(err, gitstore.ErrNotFound) {
				return nil, nil // the space is gone upstream, this one too
			}
			if err != nil {
				return nil, err
			}
			if prefix == s.prefix {
				return s, nil
			}
			cfg, err := content.ParseConfig(data)
			if err != nil {
				return nil, fmt.Errorf("%s%s: %w", prefix, content.ConfigFile, err)
			}
			o := &Space{store: s.store, prefix: prefix, cfg: cfg}
			if wd := s.store.WorkDir(); wd != "" {
				o.dir = filepath.Join(wd, filepath.FromSlash(prefix))
			}
			return o, nil
		case !errors.Is(err, gitstore.ErrNotFound):
			return nil, err
		}
		if prefix == "" {
			return s, nil // no space holds p: rebuilt as the syncing space's
		}
	}
}
