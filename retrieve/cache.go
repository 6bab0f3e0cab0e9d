package retrieve

import (
	"context"
	"errors"
	"fmt"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// A server answers many questions against one commit, and what a query
// reads from git for it is the same every time: the spokes navigation
// opens, the open lint findings, the pages it cites and their words. These
// caches keep them, keyed so that they can never be stale: by commit (a
// commit's files never change) or by blob id (a blob's content never
// changes). Each is bounded and simply emptied when full.
const (
	maxCachedCommits = 4    // spaces × commits whose spokes and findings are kept
	maxCachedBlobs   = 4096 // parsed pages and page term sets kept
)

// commitCache holds per-commit data of one space: parsed spokes and the
// pages with open findings.
type commitCache struct {
	spokes map[string]spokeParse
	review map[string]bool
	hasRev bool
	scoped []scopedPage // pages with applies_to (applies.go)
	hasSc  bool
}

type spokeParse struct {
	members, parts []string
	ok             bool
}

var caches = struct {
	sync.Mutex
	commits map[string]*commitCache // space state dir + "@" + commit
	pages   map[[2]string]*wiki.PageAt
	terms   map[string]map[string]bool
	tokens  map[string]positions
	globs   map[string][]string // blob id → its page's applies_to (nil: none)
}{commits: map[string]*commitCache{}, pages: map[[2]string]*wiki.PageAt{}, terms: map[string]map[string]bool{}, tokens: map[string]positions{}, globs: map[string][]string{}}

func commitEntry(s *wiki.Space, head wiki.Rev) *commitCache {
	k := s.StateDir() + "@" + string(head)
	c := caches.commits[k]
	if c == nil {
		if len(caches.commits) >= maxCachedCommits {
			clear(caches.commits)
		}
		c = &commitCache{spokes: map[string]spokeParse{}}
		caches.commits[k] = c
	}
	return c
}

// readSpokeAt returns the members and parts of the spoke at p in head, and
// whether it could be read.
func readSpokeAt(ctx context.Context, s *wiki.Space, head wiki.Rev, p string) spokeParse {
	caches.Lock()
	sp, ok := commitEntry(s, head).spokes[p]
	caches.Unlock()
	if ok {
		return sp
	}
	data, _, err := s.ReadFile(ctx, head, p)
	if err != nil {
		if !errors.Is(err, wiki.ErrNotFound) {
			return spokeParse{} // not cached: a failed read says nothing of the spoke
		}
	} else {
		sp.members, sp.parts = spokeMembers(p, data)
		sp.ok = true
	}
	caches.Lock()
	commitEntry(s, head).spokes[p] = sp
	caches.Unlock()
	return sp
}

// openPaths is lint.OpenPaths, once per commit.
func openPaths(ctx context.Context, s *wiki.Space, head wiki.Rev) (map[string]bool, error) {
	caches.Lock()
	c := commitEntry(s, head)
	review, ok := c.review, c.hasRev
	caches.Unlock()
	if ok {
		return review, nil
	}
	review, err := lint.OpenPaths(ctx, s, head)
	if err != nil {
		return nil, err
	}
	caches.Lock()
	c = commitEntry(s, head)
	c.review, c.hasRev = review, true
	caches.Unlock()
	return review, nil
}

// errReadBlob marks a blob that could not be read, as opposed to one that
// does not parse.
var errReadBlob = errors.New("read blob")

// parsedBlob returns the page a blob holds at path p, parsed once. The
// PageAt is shared: callers must not modify it.
func parsedBlob(ctx context.Context, s *wiki.Space, blob, p string) (*wiki.PageAt, error) {
	k := [2]string{blob, p}
	caches.Lock()
	pa := caches.pages[k]
	caches.Unlock()
	if pa != nil {
		return pa, nil
	}
	data, err := s.ReadBlob(ctx, blob)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errReadBlob, err)
	}
	pg, err := content.Parse(p, data)
	if err != nil {
		return nil, err
	}
	pa = &wiki.PageAt{Path: p, Revision: blob, Page: pg, Raw: data}
	caches.Lock()
	if len(caches.pages) >= maxCachedBlobs {
		clear(caches.pages)
	}
	caches.pages[k] = pa
	caches.Unlock()
	return pa, nil
}

// cachedTermSet is termSet(text()), kept as keptByText keeps values. The
// set is shared: callers must not modify it.
func cachedTermSet(rev, key string, text func() string) map[string]bool {
	return keptByText(caches.terms, rev, key, text, termSet)
}

// cachedPositions is the term positions of text(), kept as keptByText keeps
// values. The map is shared: callers must not modify it.
func cachedPositions(rev, key string, text func() string) positions {
	return keptByText(caches.tokens, rev, key, text, func(s string) positions { return positionsOf(index.Tokens(s)) })
}

// keptByText is build(text()), kept in m (a map of caches, never replaced)
// under key, which must name the text exactly (blob ids and section ids,
// never a path alone); rev is the blob the text comes from, and nothing is
// kept without one.
func keptByText[T any](m map[string]T, rev, key string, text func() string, build func(string) T) T {
	if rev == "" {
		return build(text())
	}
	caches.Lock()
	v, ok := m[key]
	caches.Unlock()
	if ok {
		return v
	}
	v = build(text())
	caches.Lock()
	if len(m) >= maxCachedBlobs {
		clear(m)
	}
	m[key] = v
	caches.Unlock()
	return v
}
