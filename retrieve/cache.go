package retrieve

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/retrieve/internal/index"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// A server answers many questions against one commit, and what a query
// reads from git for it is the same every time: the spokes navigation
// opens, the open lint findings, the pages it cites and their words. These
// caches keep them, keyed so that they can never be stale: by commit (a
// commit's files never change) or by blob id (a blob's content never
// changes). Each is bounded and simply emptied when full. An Engine owns
// one cache, of its space.
const (
	maxCachedCommits = 4    // commits whose spokes and findings are kept
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

// cache is an Engine's caches.
type cache struct {
	sync.Mutex
	commits map[wiki.Rev]*commitCache
	pages   map[[2]string]*wiki.PageAt
	terms   map[string]map[string]bool
	tokens  map[string]positions
	globs   map[string][]string // blob id → its page's applies_to (nil: none)
	secrets map[string]bool     // blob id → whether it carries a credential
}

func (c *cache) init() {
	c.commits = map[wiki.Rev]*commitCache{}
	c.pages = map[[2]string]*wiki.PageAt{}
	c.terms = map[string]map[string]bool{}
	c.tokens = map[string]positions{}
	c.globs = map[string][]string{}
	c.secrets = map[string]bool{}
}

// hasSecret reports whether the page at blob carries a credential, scanning
// each blob once: a blob's content never changes, and the scan is the
// costliest step of picking a page.
func (c *cache) hasSecret(blob string, raw []byte) bool {
	c.Lock()
	found, known := c.secrets[blob]
	c.Unlock()
	if known {
		return found
	}
	found = len(secret.Scan(raw)) > 0
	c.Lock()
	if len(c.secrets) >= maxCachedBlobs {
		clear(c.secrets)
	}
	c.secrets[blob] = found
	c.Unlock()
	return found
}

// commitEntry is head's entry, made when missing; the caller holds c.
func (c *cache) commitEntry(head wiki.Rev) *commitCache {
	cc := c.commits[head]
	if cc == nil {
		if len(c.commits) >= maxCachedCommits {
			clear(c.commits)
		}
		cc = &commitCache{spokes: map[string]spokeParse{}}
		c.commits[head] = cc
	}
	return cc
}

// readSpokeAt returns the members and parts of the spoke at p in head, and
// whether it could be read.
func (c *cache) readSpokeAt(ctx context.Context, s *wiki.Space, head wiki.Rev, p string) spokeParse {
	c.Lock()
	sp, ok := c.commitEntry(head).spokes[p]
	c.Unlock()
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
	c.Lock()
	c.commitEntry(head).spokes[p] = sp
	c.Unlock()
	return sp
}

// openPaths is lint.OpenPaths, once per commit.
func (c *cache) openPaths(ctx context.Context, s *wiki.Space, head wiki.Rev) (map[string]bool, error) {
	c.Lock()
	cc := c.commitEntry(head)
	review, ok := cc.review, cc.hasRev
	c.Unlock()
	if ok {
		return review, nil
	}
	review, err := lint.OpenPaths(ctx, s, head)
	if err != nil {
		return nil, err
	}
	c.Lock()
	cc = c.commitEntry(head)
	cc.review, cc.hasRev = review, true
	c.Unlock()
	return review, nil
}

// errReadBlob marks a blob that could not be read, as opposed to one that
// does not parse.
var errReadBlob = errors.New("read blob")

// parsedBlob returns the page a blob holds at path p, parsed once. The
// PageAt is shared: callers must not modify it.
func (c *cache) parsedBlob(ctx context.Context, s *wiki.Space, blob, p string) (*wiki.PageAt, error) {
	k := [2]string{blob, p}
	c.Lock()
	pa := c.pages[k]
	c.Unlock()
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
	c.Lock()
	if len(c.pages) >= maxCachedBlobs {
		clear(c.pages)
	}
	c.pages[k] = pa
	c.Unlock()
	return pa, nil
}

// cachedTermSet is termSet(text()), kept as keptByText keeps values. The
// set is shared: callers must not modify it.
func (c *cache) cachedTermSet(rev, key string, text func() string) map[string]bool {
	return keptByText(c, c.terms, rev, key, text, termSet)
}

// cachedPositions is the term positions of text(), kept as keptByText keeps
// values. The map is shared: callers must not modify it.
func (c *cache) cachedPositions(rev, key string, text func() string) positions {
	return keptByText(c, c.tokens, rev, key, text, func(s string) positions { return positionsOf(index.Tokens(s)) })
}

// keptByText is build(text()), kept in m (a map of caches, never replaced)
// under key, which must name the text exactly (blob ids and section ids,
// never a path alone); rev is the blob the text comes from, and nothing is
// kept without one. c's lock guards m.
func keptByText[T any](c *cache, m map[string]T, rev, key string, text func() string, build func(string) T) T {
	if rev == "" {
		return build(text())
	}
	c.Lock()
	v, ok := m[key]
	c.Unlock()
	if ok {
		return v
	}
	v = build(text())
	c.Lock()
	if len(m) >= maxCachedBlobs {
		clear(m)
	}
	m[key] = v
	c.Unlock()
	return v
}
