package web

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// headState is what the views derive from one commit and share: the open
// findings by page, and the number of pages in each top-level folder.
type headState struct {
	head    wiki.Rev
	open    []lint.Finding
	byPath  map[string][]lint.Finding
	folders []folderCount // read on first use (the hub)
}

// folderCount is how many pages one top-level folder holds.
type folderCount struct {
	Dir   string
	Pages int
}

// stateAt returns the state of the space's head, reading it again only
// when the head has moved.
func (site *Site) stateAt(ctx context.Context) (*headState, error) {
	head, err := site.space.Head(ctx)
	if err != nil {
		return nil, err
	}
	site.mu.Lock()
	st := site.state
	site.mu.Unlock()
	if st != nil && st.head == head {
		return st, nil
	}
	fs, err := lint.Findings(ctx, site.space, head)
	if err != nil {
		return nil, err
	}
	st = &headState{head: head, byPath: map[string][]lint.Finding{}}
	for _, f := range fs {
		if f.Open() {
			st.open = append(st.open, f)
			st.byPath[f.Path] = append(st.byPath[f.Path], f)
		}
	}
	site.mu.Lock()
	site.state = st
	site.mu.Unlock()
	return st, nil
}

// folderCounts counts the pages of each top-level folder at the state's
// head, once.
func (site *Site) folderCounts(ctx context.Context, st *headState) ([]folderCount, error) {
	site.mu.Lock()
	fc := st.folders
	site.mu.Unlock()
	if fc != nil {
		return fc, nil
	}
	es, err := site.space.Pages(ctx, st.head)
	if err != nil {
		return nil, err
	}
	n := map[string]int{}
	for _, e := range es {
		dir, _, ok := strings.Cut(e.Path, "/")
		if !ok {
			dir = "."
		}
		n[dir]++
	}
	fc = []folderCount{}
	for d, c := range n {
		if d != "." {
			fc = append(fc, folderCount{Dir: d, Pages: c})
		}
	}
	sort.Slice(fc, func(i, j int) bool { return fc[i].Dir < fc[j].Dir })
	site.mu.Lock()
	st.folders = fc
	site.mu.Unlock()
	return fc, nil
}

// derivedPath reports whether p is a file pt regenerates in every batch
// (the hub, spokes, log, findings): the views list a batch's own pages
// first.
func derivedPath(p string) bool {
	return p == wiki.HubPath || p == wiki.LogPath || p == lint.FindingsPath ||
		strings.HasPrefix(p, wiki.TopicsDir) || path.Dir(p)+"/" == wiki.LogDir
}
