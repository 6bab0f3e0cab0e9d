package wiki

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// A folder of a space that holds a kb.yaml of its own is another space
// (pt init in a subfolder, or a merge of two repositories): its pages are
// relative to its own root and belong to it alone. Listing them as the
// outer space's would have the outer lint report their pins as drifted
// (and mark them stale), and the outer index answer with them.

// nestedRoots returns the folders of es (space paths) that hold a kb.yaml,
// each with a trailing slash.
func nestedRoots(es []Entry) []string {
	var roots []string
	for _, e := range es {
		if path.Base(e.Path) == content.ConfigFile && e.Path != content.ConfigFile {
			roots = append(roots, path.Dir(e.Path)+"/")
		}
	}
	return roots
}

// underAny reports whether p lies in one of roots.
func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if strings.HasPrefix(p, r) {
			return true
		}
	}
	return false
}

// nestedAt answers, for one commit, whether a space path lies in a nested
// space, remembering each folder it looked up.
type nestedAt struct {
	s      *Space
	commit gitstore.Hash
	known  map[string]bool // folder (no slash) → holds kb.yaml
}

func (n *nestedAt) in(ctx context.Context, p string) (bool, error) {
	if n.commit.IsZero() {
		return false, nil
	}
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		has, ok := n.known[d]
		if !ok {
			_, err := n.s.store.BlobOf(ctx, n.commit, n.s.prefix+d+"/"+content.ConfigFile)
			switch {
			case err == nil:
				has = true
			case !errors.Is(err, gitstore.ErrNotFound):
				return false, err
			}
			n.known[d] = has
		}
		if has {
			return true, nil
		}
	}
	return false, nil
}
