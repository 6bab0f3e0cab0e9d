package wiki

import (
	"bytes"
	"context"
	"errors"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// People edit pages in their git host too: they change a page's topics or
// title, rename it, delete it, add one by hand. Spokes and the hub follow
// the pages a batch writes, so a batch also brings them up to date with
// every page changed since the last batch of the space, the anchor: each
// such page's entries are set to what it is at head. A page whose spoke
// already lists it as it is changes nothing, so an anchor older than
// needed costs reading, never correctness.

// anchorWalk bounds how many commits a batch reads looking for the
// space's last batch (commits of code beside a space, or of other spaces,
// are read and passed over); past it, the commit it reached serves as the
// anchor.
const anchorWalk = 1000

// handChange is a page changed outside pt: its entry at the anchor, and at
// head.
type handChange struct{ old, new *member }

// anchor returns the latest commit at or before head, along first parents,
// that is a batch changing this space's own files, or the commit
// anchorWalk steps back when none is nearer ("" when there is no head, or
// only commits made before the space had a batch).
func (tx *Tx) anchor(ctx context.Context) (Rev, error) {
	h, err := toHash(tx.head)
	if err != nil || h.IsZero() {
		return "", err
	}
	for range anchorWalk {
		c, err := tx.space.store.CommitInfo(ctx, h)
		if err != nil {
			return "", err
		}
		if _, isBatch := ParseTrailers(c.Message); isBatch {
			mine, err := tx.touches(ctx, c)
			if err != nil || mine {
				return Rev(c.Hash.String()), err
			}
		}
		if len(c.Parents) == 0 {
			return "", nil
		}
		h = c.Parents[0]
	}
	return Rev(h.String()), nil
}

// touches reports whether batch c is this space's: in a repository of
// several spaces, nested or side by side, another space's batch is no
// anchor. Every batch of a space writes its log.md entry, so comparing
// that one file at c and its parent answers without diffing the space (a
// batch rebuilt without a log entry by pt sync is passed over, and an
// earlier anchor costs only reading).
func (tx *Tx) touches(ctx context.Context, c gitstore.Commit) (bool, error) {
	if len(c.Parents) == 0 {
		return true, nil
	}
	st, p := tx.space.store, tx.space.repoPath(LogPath)
	after, err := st.BlobOf(ctx, c.Hash, p)
	if errors.Is(err, gitstore.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	before, err := st.BlobOf(ctx, c.Parents[0], p)
	if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
		return false, err
	}
	return before != after, nil
}

// handChanges returns the pages changed between the space's last batch and
// head, with their entries then and now, and the topics whose spoke a
// person deleted or edited meanwhile, to be rewritten. It also remembers
// the anchor, so that such a spoke is rebuilt from what it listed there.
func (tx *Tx) handChanges(ctx context.Context) (map[string]handChange, []string, error) {
	a, err := tx.anchor(ctx)
	if err != nil || a == "" || a == tx.head {
		return nil, nil, err
	}
	tx.anchorRev = a
	cs, err := tx.space.Diff(ctx, a, tx.head)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]handChange{}
	var rewrite []string
	for _, c := range cs {
		if slug, ok := spokeSlug(c.Path); ok {
			switch {
			case c.To == "" && path.Dir(c.Path)+"/" == TopicsDir:
				rewrite = append(rewrite, slug)
			case c.From != "" && c.To != "":
				tx.handEdited[c.Path] = true
				rewrite = append(rewrite, slug)
			}
		}
		if c.Path == HubPath && c.From != "" && c.To != "" {
			tx.handEdited[c.Path] = true
		}
		if IsIndexPage(c.Path) || !strings.HasSuffix(c.Path, ".md") {
			continue
		}
		var hc handChange
		var before, after []byte
		if c.From != "" {
			if before, err = tx.space.ReadBlob(ctx, c.From); err != nil {
				return nil, nil, err
			}
		}
		if c.To != "" {
			if after, err = tx.space.ReadBlob(ctx, c.To); err != nil {
				return nil, nil, err
			}
		}
		if c.From != "" && c.To != "" && bytes.Equal(content.RawFrontmatter(before), content.RawFrontmatter(after)) && content.Readable(before) == content.Readable(after) {
			continue // only the body changed: the spoke entry is the same
		}
		if c.From != "" {
			hc.old = memberOfData(c.Path, before)
		}
		if c.To != "" {
			hc.new = memberOfData(c.Path, after)
		}
		out[c.Path] = hc
	}
	return out, rewrite, nil
}

// memberOfData is a page's spoke entry from its bytes; nil when pt cannot
// read it as a page.
func memberOfData(p string, data []byte) *member {
	pg, err := content.Parse(p, data)
	if err != nil {
		return nil
	}
	return memberOf(p, pg)
}

// pageAtAnchor reads p as it was at the anchor (or as a revert seeded it);
// nil when there is none or p was not there.
func (tx *Tx) pageAtAnchor(ctx context.Context, p string) (*PageAt, error) {
	if pa := tx.seeds[p]; pa != nil {
		return pa, nil
	}
	if tx.anchorRev == "" {
		return nil, nil
	}
	pa, err := tx.space.ReadPage(ctx, tx.anchorRev, p)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return pa, err
}

// spokeSlug returns the topic of a spoke file: topics/<slug>.md or one of
// its parts, topics/<slug>/part-N.md.
func spokeSlug(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, TopicsDir)
	if !ok || !strings.HasSuffix(rest, ".md") {
		return "", false
	}
	if dir, _, nested := strings.Cut(rest, "/"); nested {
		return dir, !strings.Contains(rest[len(dir)+1:], "/")
	}
	return strings.TrimSuffix(rest, ".md"), true
}

// generatedBody is the body whose generated blocks describe p: its body at
// head, or, when a person edited p since the anchor, its body there.
func (tx *Tx) generatedBody(ctx context.Context, p string, body []byte) []byte {
	if !tx.handEdited[p] {
		return body
	}
	pa, err := tx.space.ReadPage(ctx, tx.anchorRev, p)
	if err != nil {
		return body
	}
	return pa.Page.Body
}

// PendingFile is a file as the next batch will write it.
type PendingFile struct {
	Path    string
	Data    []byte
	Deleted bool
}

// IndexCatchUp returns the spokes and hub as a batch on rev that writes
// the given pages will leave them: following those pages, and caught up
// with the pages people changed in git since the space's last batch (nil
// when nothing changes). Lint checks the space as its batch leaves it, so
// that a page the batch adds to a spoke is no orphan in that batch's
// findings, nor a spoke it empties a link target. A given page comes back
// too when the batch rewrites it (the hub, marked stale, gets its list).
func (s *Space) IndexCatchUp(ctx context.Context, rev Rev, pages ...PendingFile) ([]PendingFile, error) {
	if rev == "" {
		return nil, nil
	}
	tx := newTx(s, rev, Batch{})
	written := map[string][]byte{}
	for _, f := range pages {
		written[f.Path] = f.Data
		var err error
		if f.Deleted {
			err = tx.Delete(ctx, f.Path, RolePage)
		} else {
			_, err = tx.PutFile(ctx, f.Path, f.Data, RolePage)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := tx.updateSpokes(ctx); err != nil {
		return nil, err
	}
	var out []PendingFile
	for _, p := range tx.order {
		st := tx.staged[p]
		if w, given := written[p]; given && !st.deleted && bytes.Equal(w, st.data) {
			continue // as given (a page given that is also the hub is rewritten)
		}
		out = append(out, PendingFile{Path: p, Data: st.data, Deleted: st.deleted})
	}
	return out, nil
}

// CatchUpIndex makes the batch commit even when all it changes is the
// spokes and hub catching up with pages people changed in git: lint's
// batch, which found the space as that catch-up leaves it, writes it.
func (tx *Tx) CatchUpIndex() { tx.catchUp = true }
