package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Git file modes as they appear in tree objects.
const (
	modeFile    uint32 = 0o100644
	modeExec    uint32 = 0o100755
	modeSymlink uint32 = 0o120000
	modeTree    uint32 = 0o040000
	modeGitlink uint32 = 0o160000
)

// treeEntry is one line of a tree object.
type treeEntry struct {
	name string
	mode uint32
	hash Hash
}

func (e treeEntry) isTree() bool { return e.mode == modeTree }

// parseTree decodes a raw tree object. A space keeps thousands of pages in
// one directory, so the entries are counted first and allocated at once,
// and their names are cut from one copy of the object rather than copied
// one by one.
func parseTree(data []byte) ([]treeEntry, error) {
	n := 0
	for rest := data; len(rest) > 0; n++ {
		nul := bytes.IndexByte(rest, 0)
		if nul < 0 || len(rest) < nul+21 {
			return nil, errors.New("gitstore: malformed tree: truncated entry")
		}
		rest = rest[nul+21:]
	}
	out := make([]treeEntry, 0, n)
	text := string(data) // the names are substrings of it
	for pos := 0; pos < len(text); {
		sp := strings.IndexByte(text[pos:], ' ')
		if sp < 0 {
			return nil, errors.New("gitstore: malformed tree: no mode")
		}
		mode, err := parseMode(text[pos : pos+sp])
		if err != nil {
			return nil, err
		}
		pos += sp + 1
		nul := strings.IndexByte(text[pos:], 0)
		if nul < 0 || len(text) < pos+nul+21 {
			return nil, errors.New("gitstore: malformed tree: truncated entry")
		}
		e := treeEntry{name: text[pos : pos+nul], mode: mode}
		copy(e.hash[:], text[pos+nul+1:pos+nul+21])
		out = append(out, e)
		pos += nul + 21
	}
	return out, nil
}

// parseMode reads a tree entry's octal mode.
func parseMode(s string) (uint32, error) {
	if len(s) == 0 || len(s) > 7 {
		return 0, fmt.Errorf("gitstore: malformed tree: mode %q", s)
	}
	var m uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return 0, fmt.Errorf("gitstore: malformed tree: mode %q", s)
		}
		m = m<<3 | uint32(c-'0')
	}
	return m, nil
}

// encodeTree sorts entries the way git requires and encodes them.
func encodeTree(entries []treeEntry) []byte {
	sortTree(entries)
	n := 0
	for _, e := range entries {
		n += 7 + len(e.name) + 21
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = strconv.AppendUint(b, uint64(e.mode), 8)
		b = append(b, ' ')
		b = append(b, e.name...)
		b = append(b, 0)
		b = append(b, e.hash[:]...)
	}
	return b
}

// sortTree puts entries in git tree order. A rebuilt tree is its old
// entries, in order, followed by the few it gains: those are sorted and
// merged in, rather than sorting a directory of thousands again.
func sortTree(entries []treeEntry) {
	k := 1
	for k < len(entries) && treeLess(entries[k-1], entries[k]) {
		k++
	}
	if k >= len(entries) {
		return
	}
	tail := slices.Clone(entries[k:])
	slices.SortFunc(tail, func(a, b treeEntry) int {
		switch {
		case treeLess(a, b):
			return -1
		case treeLess(b, a):
			return 1
		}
		return 0
	})
	// Merge from the back, where the tail's room is.
	i, j := k-1, len(tail)-1
	for w := len(entries) - 1; j >= 0; w-- {
		if i >= 0 && treeLess(tail[j], entries[i]) {
			entries[w] = entries[i]
			i--
		} else {
			entries[w] = tail[j]
			j--
		}
	}
}

// treeLess is git's tree order: bytewise, with a directory compared as if its
// name ended in "/".
func treeLess(a, b treeEntry) bool {
	an, bn := a.name, b.name
	n := min(len(an), len(bn))
	if c := strings.Compare(an[:n], bn[:n]); c != 0 {
		return c < 0
	}
	ac, bc := nameEnd(a, n), nameEnd(b, n)
	return ac < bc
}

// nameEnd is the byte at position n of e's name, extended with "/" for trees.
func nameEnd(e treeEntry, n int) int {
	if n < len(e.name) {
		return int(e.name[n])
	}
	if e.isTree() {
		return '/'
	}
	return 0 // end of name: shorter sorts first
}

// readTree returns the entries of tree h; the zero hash is the empty tree.
// Parsed trees come from s.trees, the store's cache, so the returned
// slice is shared: callers must not modify it (build copies it first). The
// caller holds s.mu.
func (s *Store) readTree(h Hash) ([]treeEntry, error) {
	if h.IsZero() || h == emptyTree {
		return nil, nil
	}
	if entries, ok := s.trees.get(h); ok {
		return entries, nil
	}
	data, err := s.readTyped(h, treeObject)
	if err != nil {
		return nil, err
	}
	entries, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	s.trees.put(h, entries)
	return entries, nil
}

// lookup finds the entry at path in tree root; ok is false when absent.
func (s *Store) lookup(root Hash, path string) (treeEntry, bool, error) {
	cur := treeEntry{mode: modeTree, hash: root}
	for {
		name, rest, more := strings.Cut(path, "/")
		if !cur.isTree() {
			return treeEntry{}, false, nil
		}
		entries, err := s.readTree(cur.hash)
		if err != nil {
			return treeEntry{}, false, err
		}
		e, found := findEntry(entries, name)
		if !found {
			return treeEntry{}, false, nil
		}
		cur = e
		if !more {
			return cur, true, nil
		}
		path = rest
	}
}

// findEntry finds name among entries in git tree order by binary search:
// once as a file (or symlink, or submodule), once as a directory, since
// git sorts a directory as if its name ended in "/". Spaces keep thousands
// of pages in one directory, and every read of a page looks its name up.
func findEntry(entries []treeEntry, name string) (treeEntry, bool) {
	if i, ok := findIndex(entries, name); ok {
		return entries[i], true
	}
	return treeEntry{}, false
}

// findIndex is findEntry's position of name in entries.
func findIndex(entries []treeEntry, name string) (int, bool) {
	for _, mode := range [...]uint32{modeFile, modeTree} {
		probe := treeEntry{name: name, mode: mode}
		i := sort.Search(len(entries), func(i int) bool { return !treeLess(entries[i], probe) })
		if i < len(entries) && entries[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// ErrPathConflict is returned by Commit when a change needs a file where a
// directory is (or the reverse) and the same request does not remove the
// thing in the way. It is a caller bug or a conflicting batch, never retried.
var ErrPathConflict = errors.New("path conflict")

// changeNode is a directory of the change trie built from a CommitRequest.
type changeNode struct {
	children map[string]*changeNode
	change   *Change // non-nil when a change names this exact path
}

// fileChange is what tree building reports for each path whose blob (or
// mode) really changed; it drives the work tree and index update.
type fileChange struct {
	path     string
	from, to Hash
	mode     uint32 // mode of the new entry (0 when deleted)
}

// treeBuilder rebuilds only the trees on changed paths.
type treeBuilder struct {
	s       *Store
	objects []object
	changes []fileChange
}

// buildTrees applies the trie to the tree root and returns the new root.
// Within one directory deletes are applied before writes and a path's own
// delete before its children, so "delete a, write a/b" (file becomes
// directory) and "delete every a/*, write a" (directory becomes file) work;
// anything else that puts a file where a directory is, or the reverse, is
// ErrPathConflict.
func (b *treeBuilder) build(root Hash, n *changeNode, dir string) (Hash, bool, error) {
	shared, err := b.s.readTree(root)
	if err != nil {
		return Hash{}, false, err
	}
	// Edited below (the cached tree is shared): entries keep their names and
	// order, so that the old ones are found by binary search; the removed
	// are marked in gone, the new appended and found in added.
	entries := slices.Clone(shared)
	orig := len(entries)
	added := map[string]int{}
	gone := map[int]bool{}
	find := func(name string) (int, bool) {
		if i, ok := added[name]; ok {
			return i, true
		}
		i, ok := findIndex(entries[:orig], name)
		return i, ok && !gone[i]
	}
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		child := n.children[name]
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		i, exists := find(name)
		var cur treeEntry
		if exists {
			cur = entries[i]
		}
		// The path's own delete comes first.
		if child.change != nil && child.change.Delete {
			if exists && cur.isTree() {
				return Hash{}, false, fmt.Errorf("gitstore: delete %s: is a directory: %w", p, ErrPathConflict)
			}
			if exists {
				b.changes = append(b.changes, fileChange{path: p, from: cur.hash})
				gone[i] = true
				exists = false
			}
		}
		// Then what lies below it.
		if len(child.children) > 0 {
			switch {
			case exists && !cur.isTree():
				if hasWrite(child) {
					return Hash{}, false, fmt.Errorf("gitstore: write under %s: is a file: %w", p, ErrPathConflict)
				}
				// Only deletes below a file: nothing to delete.
			default:
				var sub Hash
				if exists {
					sub = cur.hash
				}
				nh, empty, err := b.build(sub, child, p)
				if err != nil {
					return Hash{}, false, err
				}
				switch {
				case empty && exists:
					gone[i] = true
					exists = false
				case empty:
				case exists:
					entries[i].hash = nh
				default:
					entries = append(entries, treeEntry{name: name, mode: modeTree, hash: nh})
					added[name] = len(entries) - 1
					exists = true
				}
				if exists {
					i, _ = find(name)
					cur = entries[i]
				}
			}
		}
		// The path's own write comes last.
		if child.change != nil && !child.change.Delete {
			bh := child.change.Blob
			if child.change.Data != nil || bh.IsZero() {
				bh = hashObject(blobObject, child.change.Data)
			}
			mode := modeFile
			if exists && cur.isTree() {
				return Hash{}, false, fmt.Errorf("gitstore: write %s: is a directory: %w", p, ErrPathConflict)
			}
			if exists && cur.mode == modeExec {
				mode = modeExec // keep the executable bit a user set
			}
			if exists && cur.hash == bh && cur.mode == mode {
				continue
			}
			if bh != child.change.Blob { // a blob given by id is in the request's pack
				b.objects = append(b.objects, object{hash: bh, typ: blobObject, data: child.change.Data})
			}
			var from Hash
			if exists {
				from = cur.hash
				entries[i] = treeEntry{name: name, mode: mode, hash: bh}
			} else {
				entries = append(entries, treeEntry{name: name, mode: mode, hash: bh})
				added[name] = len(entries) - 1
			}
			b.changes = append(b.changes, fileChange{path: p, from: from, to: bh, mode: mode})
		}
	}
	kept := entries[:0]
	for i, e := range entries {
		if !gone[i] {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return Hash{}, true, nil
	}
	data := encodeTree(kept)
	h := hashObject(treeObject, data)
	if h != root {
		b.objects = append(b.objects, object{hash: h, typ: treeObject, data: data})
		b.s.trees.put(h, kept) // the next batch reads the new head's trees
	}
	return h, false, nil
}

func hasWrite(n *changeNode) bool {
	if n.change != nil && !n.change.Delete {
		return true
	}
	for _, c := range n.children {
		if hasWrite(c) {
			return true
		}
	}
	return false
}

// changeTrie validates the changes and arranges them by directory.
func changeTrie(changes []Change) (*changeNode, error) {
	root := &changeNode{}
	seen := make(map[string]bool, len(changes))
	for i := range changes {
		c := &changes[i]
		if err := validPath(c.Path); err != nil {
			return nil, err
		}
		if seen[c.Path] {
			return nil, fmt.Errorf("gitstore: %s: changed twice in one commit", c.Path)
		}
		seen[c.Path] = true
		n := root
		for _, name := range strings.Split(c.Path, "/") {
			if n.children == nil {
				n.children = map[string]*changeNode{}
			}
			next := n.children[name]
			if next == nil {
				next = &changeNode{}
				n.children[name] = next
			}
			n = next
		}
		n.change = c
	}
	return root, nil
}

// ErrBadPath is returned for a path git cannot store or that would escape
// the repository.
var ErrBadPath = errors.New("invalid path")

// validPath accepts slash-separated relative paths with no empty, ".", ".."
// or ".git" component: what `git fsck --strict` and a checkout accept.
func validPath(p string) error {
	if p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") {
		return fmt.Errorf("gitstore: %q: %w", p, ErrBadPath)
	}
	for _, name := range strings.Split(p, "/") {
		if name == "" || name == "." || name == ".." || strings.EqualFold(name, ".git") {
			return fmt.Errorf("gitstore: %q: %w", p, ErrBadPath)
		}
	}
	return nil
}

// treeCache keeps parsed trees by hash. A tree's hash names its content, so
// an entry never goes stale and is right for every repository that holds
// the tree; without it every read of a page re-reads and re-parses the
// trees on its path, thousands of entries each in a large space. It is
// bounded by the number of entries it holds: two generations, the older
// dropped whole when the newer fills up, and a hit in the older moves the
// tree to the newer.
type treeCache struct {
	mu       sync.Mutex
	cur, old map[Hash][]treeEntry
	size     int // entries held in cur
	limit    int // entries per generation
}

// treeCacheEntries bounds each generation to about 10 MB (20 MB in all):
// the directories of a space of 100,000 pages fit in one.
const treeCacheEntries = 1 << 17

func newTreeCache() *treeCache {
	return &treeCache{cur: map[Hash][]treeEntry{}, limit: treeCacheEntries}
}

func (c *treeCache) get(h Hash) ([]treeEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.cur[h]; ok {
		return e, true
	}
	e, ok := c.old[h]
	if ok {
		delete(c.old, h)
		c.add(h, e)
	}
	return e, ok
}

func (c *treeCache) put(h Hash, entries []treeEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cur[h]; !ok {
		c.add(h, entries)
	}
}

// add inserts into the newer generation, starting a new one when it is
// full. The caller holds c.mu.
func (c *treeCache) add(h Hash, entries []treeEntry) {
	n := len(entries) + 1
	if c.size+n > c.limit {
		c.old, c.cur, c.size = c.cur, map[Hash][]treeEntry{}, 0
	}
	c.cur[h] = entries
	c.size += n
}
