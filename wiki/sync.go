package wiki

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Errors of Sync that callers branch on (besides ErrConflict, through a
// *ConflictError naming the paths).
var (
	// ErrRemoteMoved: other writers kept pushing between this replica's
	// fetch and its push for every attempt; the local batches are kept and
	// the next sync pushes them.
	ErrRemoteMoved = gitstore.ErrRemoteMoved
	// ErrPushRejected: the remote refused the push (a hook, a protected
	// branch, missing rights); the local batches are kept.
	ErrPushRejected = gitstore.ErrPushRejected
	// ErrNoRemote: the repository has no remote of that name.
	ErrNoRemote = gitstore.ErrNoRemote
)

// SyncOptions says which remote to sync with and how hard to try. The zero
// value syncs with kb.yaml's remote, else "origin".
type SyncOptions struct {
	// Remote is a remote's name (git remote add NAME URL) or a URL; ""
	// means kb.yaml's `remote:`, else "origin".
	Remote string
	// Attempts bounds the fetch-rebase-push rounds when another writer
	// pushes in between; 0 means 5.
	Attempts int
	// SetAside makes a local batch that conflicts with the remote move
	// aside to refs/pt/set-aside/<batch> (kept, reported, not on the
	// branch) instead of stopping the sync.
	SetAside bool
	// Committer is recorded in the reflog when the branch moves; zero
	// means "pt".
	Committer Author
	// Merge lists files, by path relative to the space root, that pt
	// writes from the pages rather than from what a person wrote (lint's
	// findings.json), each with the merge that combines a local commit's
	// version with the remote's when both changed it since they parted,
	// instead of a conflict. nil: such files conflict like any other.
	Merge map[string]MergeFunc
	// Retitle gives, for a file of Merge, the title of a batch rebuilt
	// with a merged version of it, so that its commit message and log
	// entry describe what it now holds (lint's counts). nil, or a path
	// without one: the batch keeps its title.
	Retitle map[string]RetitleFunc
	// GitUser and GitToken authenticate to an http(s) remote: the token
	// is sent as basic auth (user GitUser, else the URL's user, else
	// "x-access-token"). Empty: no credentials beyond the URL's. cmd/pt
	// reads them from $PT_GIT_USER and $PT_GIT_TOKEN (or $GIT_TOKEN).
	GitUser, GitToken string
}

// RetitleFunc returns the title (without the kind) of a batch whose file
// was merged: title is the batch's own, merged what it now writes and
// upstream what the remote held.
type RetitleFunc func(title string, merged, upstream []byte) string

// MergeFunc combines two versions of a derived file for Sync: base is the
// file before the local commit, local what the commit made of it, upstream
// what the remote branch holds now (each nil when absent). It returns the
// file the rebuilt commit writes; an error makes the file a conflict.
type MergeFunc func(base, local, upstream []byte) ([]byte, error)

// SyncResult is what a sync did: the JSON of `pt sync --json`.
type SyncResult struct {
	Remote     string `json:"remote"`
	URL        string `json:"url"` // credentials removed
	Branch     string `json:"branch"`
	Before     string `json:"before,omitempty"`      // local head before the sync
	Head       string `json:"head,omitempty"`        // local head after it
	RemoteHead string `json:"remote_head,omitempty"` // the remote branch after it
	// Received counts the commits that came down from the remote (other
	// replicas' batches, people's commits on the host).
	Received int `json:"received"`
	// Replayed lists the local batches rebuilt on top of the remote branch.
	Replayed []SyncedCommit `json:"replayed,omitempty"`
	// Pushed counts the commits the remote received from this replica.
	Pushed int `json:"pushed"`
	// Created is set when the push created the remote branch.
	Created bool `json:"created,omitempty"`
	// Rewritten names the ref that keeps the old local history when the
	// remote branch was rewritten (force-pushed): the commits it dropped
	// are not pushed back, and not lost either.
	Rewritten string `json:"rewritten,omitempty"`
	// SetAside lists local batches moved aside because they conflict.
	SetAside []SetAside `json:"set_aside,omitempty"`
	// Dropped lists local commits left out because the remote already
	// holds everything they change.
	Dropped []Dropped `json:"dropped,omitempty"`
	// Attempts is the number of fetch-rebase-push rounds.
	Attempts        int      `json:"attempts"`
	WorktreeSkipped []string `json:"worktree_skipped,omitempty"`
}

// SyncedCommit is a local commit rebuilt on the remote branch.
type SyncedCommit struct {
	Batch   string `json:"batch,omitempty"` // "" for a plain git commit
	Subject string `json:"subject"`
	From    string `json:"from"` // the commit before the sync
	To      string `json:"to"`   // the commit on the branch now
}

// Dropped is a local commit that a sync left out, neither rebuilt nor
// pushed, because the remote branch already holds every change it makes
// (its own pages; a batch's log entry, spokes and hub are not counted):
// another replica made the same change first, as when two replicas revert
// one batch. Pushing it would add a batch that changes nothing but log.md.
type Dropped struct {
	Batch   string `json:"batch,omitempty"` // "" for a plain git commit
	Subject string `json:"subject"`
	Commit  string `json:"commit"` // the local commit before the sync
}

// errApplied is replay's answer for a commit the remote already holds.
var errApplied = errors.New("already applied upstream")

// SetAside is a local batch that conflicts with the remote, kept at Ref.
type SetAside struct {
	Batch  string   `json:"batch,omitempty"`
	Commit string   `json:"commit"`
	Ref    string   `json:"ref"`
	Paths  []string `json:"paths"`
}

// UpToDate reports whether the sync changed nothing on either side.
func (r *SyncResult) UpToDate() bool {
	return r.Received == 0 && r.Pushed == 0 && len(r.Replayed) == 0 && r.Rewritten == "" && len(r.SetAside) == 0 && len(r.Dropped) == 0
}

// Sync makes the space's branch and the remote's agree, the way a person
// would with `git pull --rebase && git push`, but batch by batch: it fetches
// the remote branch; fast-forwards to it when there is nothing local; else
// rebuilds each local commit the remote lacks on top of it — a pt batch is
// prepared again on the new head, so its log entry, spokes and hub follow
// what is there now instead of clashing with it; a path that both sides
// changed (other than those derived files, and the files opts.Merge
// combines) stops the sync with a *ConflictError, or is set aside with
// SetAside — then pushes, never forcing, and starts over when someone
// pushed in between. The local branch moves with the same compare-and-swap
// as a batch, and the work tree follows. Whatever fails, no batch is lost: local commits stay on the
// branch until the remote has them.
func (s *Space) Sync(ctx context.Context, opts SyncOptions) (*SyncResult, error) {
	name := opts.Remote
	if name == "" {
		name = s.cfg.Remote
	}
	if name == "" {
		name = "origin"
	}
	res := &SyncResult{Remote: name, Branch: s.Branch()}
	r, err := s.store.LookupRemote(name)
	if err != nil {
		return res, fmt.Errorf("sync: %w", err)
	}
	res.URL = gitstore.ScrubURL(r.URL)
	r.Credentials = gitstore.Credentials{User: opts.GitUser, Token: opts.GitToken}
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = 5
	}
	unlock, err := s.store.LockSync(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	before, err := s.store.Head(ctx)
	if err != nil {
		return res, err
	}
	res.Before = hexOrEmpty(before)
	for attempt := 1; ; attempt++ {
		res.Attempts = attempt
		last, err := s.lastSynced(r)
		if err != nil {
			return res, err
		}
		tip, err := s.store.Fetch(ctx, r)
		if err != nil {
			return res, fmt.Errorf("sync: %w", err)
		}
		res.RemoteHead = hexOrEmpty(tip)
		if err := s.integrate(ctx, last, tip, res, opts); err != nil {
			return res, err
		}
		if !tip.IsZero() {
			if err := s.store.SetSynced(ctx, r, tip); err != nil {
				return res, err
			}
		}
		head, err := s.store.Head(ctx)
		if err != nil {
			return res, err
		}
		res.Head = hexOrEmpty(head)
		if head == tip || head.IsZero() {
			return res, nil
		}
		n, err := s.countBetween(ctx, tip, head)
		if err != nil {
			return res, err
		}
		err = s.store.Push(ctx, r, head, tip)
		if err == nil {
			// The push landed: record it even when the sync is being
			// cancelled, or a later rewrite of the remote would go unseen.
			if err := s.store.SetSynced(context.WithoutCancel(ctx), r, head); err != nil {
				return res, err
			}
			res.Pushed += n
			res.Created = res.Created || tip.IsZero()
			res.RemoteHead = head.String()
			return res, nil
		}
		if !errors.Is(err, gitstore.ErrRemoteMoved) || attempt >= attempts {
			return res, fmt.Errorf("sync: %w (local batches are kept and pushed by the next sync)", err)
		}
		// Someone pushed in between: back off a little, with jitter, so
		// replicas that collided do not collide again in lockstep.
		d := time.Duration(10*attempt+rand.IntN(40*attempt)) * time.Millisecond
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(d):
		}
	}
}

// lastSynced returns the remote branch as this clone last synced with it:
// what Sync recorded, else (a clone that never synced with pt, or the
// remote under another URL) the tracking ref as git left it. It is read
// before the fetch, which moves the tracking ref.
func (s *Space) lastSynced(r gitstore.Remote) (gitstore.Hash, error) {
	last, err := s.store.Synced(r)
	if err != nil || !last.IsZero() {
		return last, err
	}
	return s.store.Tracking(r)
}

// integrate moves the local branch so that it contains tip: fast-forward,
// or local commits rebuilt on top of it. last is the remote branch as this
// clone last synced with it: when tip no longer contains it, the remote
// was rewritten, and the commits up to last are not rebuilt (they were on
// the remote once, and were dropped there). It holds the write lock, so no
// local batch lands between reading the head and moving it.
func (s *Space) integrate(ctx context.Context, last, tip gitstore.Hash, res *SyncResult, opts SyncOptions) error {
	if tip.IsZero() {
		return nil // the remote has no branch yet: the push creates it
	}
	unlock, err := s.store.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	local, err := s.store.Head(ctx)
	if err != nil {
		return err
	}
	if local == tip {
		return nil
	}
	who := gitstore.Signature{Name: opts.Committer.Name, Email: opts.Committer.Email, When: s.Now()}
	if who.Name == "" {
		who.Name, who.Email = "pt", "pt@localhost"
	}
	var base gitstore.Hash
	rewritten := false
	if !local.IsZero() {
		if base, err = s.store.MergeBase(ctx, local, tip); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
		if base.IsZero() {
			return fmt.Errorf("sync: the local branch %s and the remote's share no commit (unrelated histories); nothing was changed", s.Branch())
		}
		if rewritten, err = s.rewrittenSince(ctx, last, local, tip); err != nil {
			return err
		}
		if base == tip && !rewritten {
			return nil // only local commits to push
		}
	}
	if base == local { // nothing local: fast-forward
		n, err := s.countBetween(ctx, local, tip)
		if err != nil {
			return err
		}
		return s.moveTo(ctx, local, tip, "sync: fast-forward", who, res, n)
	}

	// Diverged, or the remote was rewritten: commits up to last were on
	// the remote once, and a rewrite dropped them; they are kept at a ref
	// and not pushed back.
	boundary := base
	if rewritten {
		boundary = last
		ref := fmt.Sprintf("refs/pt/rewritten/%s-%d", s.Branch(), time.Now().Unix())
		if err := s.store.SetRef(ctx, ref, gitstore.Hash{}, local); err != nil {
			return err
		}
		res.Rewritten = ref
	}
	chain, err := s.localChain(ctx, local, boundary, tip)
	if err != nil {
		return err
	}
	n, err := s.countBetween(ctx, base, tip)
	if err != nil {
		return err
	}
	newTip := tip
	var replayed []SyncedCommit
	var aside []SetAside
	var dropped []Dropped
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		h, paths, err := s.replay(ctx, c, newTip, opts)
		if len(paths) > 0 {
			t, _ := ParseTrailers(c.Message)
			if !opts.SetAside {
				what := "commit " + c.Hash.String()[:12]
				if t.BatchID != "" {
					what = "batch " + t.BatchID + " (" + what + ")"
				}
				return fmt.Errorf("sync: local %s cannot be rebuilt on the remote branch, which changed the same pages; nothing was changed (pt sync --set-aside keeps it aside and lands the rest): %w",
					what, &ConflictError{Op: "sync", Paths: paths})
			}
			key := t.BatchID
			if key == "" {
				key = c.Hash.String()
			}
			ref := "refs/pt/set-aside/" + key
			if err := s.store.SetRef(ctx, ref, gitstore.Hash{}, c.Hash); err != nil {
				return err
			}
			aside = append(aside, SetAside{Batch: t.BatchID, Commit: c.Hash.String(), Ref: ref, Paths: paths})
			continue
		}
		if errors.Is(err, errApplied) {
			t, _ := ParseTrailers(c.Message)
			dropped = append(dropped, Dropped{Batch: t.BatchID, Subject: Subject(c.Message), Commit: c.Hash.String()})
			continue
		}
		if err != nil {
			return err
		}
		if h == newTip {
			continue // an empty commit: nothing to add
		}
		t, _ := ParseTrailers(c.Message)
		replayed = append(replayed, SyncedCommit{Batch: t.BatchID, Subject: Subject(c.Message), From: c.Hash.String(), To: h.String()})
		newTip = h
	}
	if err := s.moveTo(ctx, local, newTip, "sync: rebase on "+tip.String()[:12], who, res, n); err != nil {
		return err
	}
	// A retry rebuilds the commits of the previous round again: report each
	// local commit once, by the hash it had before the sync.
	orig := map[string]string{}
	for _, c := range res.Replayed {
		orig[c.To] = c.From
	}
	for i, c := range replayed {
		if from, ok := orig[c.From]; ok {
			replayed[i].From = from
		}
	}
	for i, d := range dropped {
		if from, ok := orig[d.Commit]; ok {
			dropped[i].Commit = from
		}
	}
	res.Replayed = replayed
	res.Dropped = append(res.Dropped, dropped...)
	res.SetAside = append(res.SetAside, aside...)
	return nil
}

// rewrittenSince reports whether the remote branch was rewritten since
// this clone last synced with it: its tip no longer contains last, which
// the local branch still holds. A local branch that no longer holds last
// (reset by hand) says nothing about the remote.
func (s *Space) rewrittenSince(ctx context.Context, last, local, tip gitstore.Hash) (bool, error) {
	if last.IsZero() || last == tip {
		return false, nil
	}
	onRemote, err := s.store.IsAncestor(ctx, last, tip)
	if err != nil || onRemote {
		return false, err
	}
	return s.store.IsAncestor(ctx, last, local)
}

func (s *Space) moveTo(ctx context.Context, from, to gitstore.Hash, msg string, who gitstore.Signature, res *SyncResult, received int) error {
	cr, err := s.store.MoveBranch(ctx, from, to, msg, who)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	res.Received += received
	res.WorktreeSkipped = append(res.WorktreeSkipped, cr.SkippedWorktree...)
	if errors.Is(cr.WorktreeErr, gitstore.ErrWorktreeIncomplete) {
		return &WorktreeError{Op: "sync", Commit: cr.Hash.String(), Err: cr.WorktreeErr}
	}
	return nil
}

// localChain lists the commits of local that the remote lacks, newest
// first, following first parents down to boundary.
func (s *Space) localChain(ctx context.Context, local, boundary, tip gitstore.Hash) ([]gitstore.Commit, error) {
	var out []gitstore.Commit
	for h := local; h != boundary; {
		if h.IsZero() {
			return nil, fmt.Errorf("sync: cannot find where the local branch meets the remote's; nothing was changed")
		}
		c, err := s.store.CommitInfo(ctx, h)
		if err != nil {
			return nil, err
		}
		if len(c.Parents) > 1 {
			// A merge made with git: its other side may be on the remote
			// already; stop where the remote's history is reached.
			if in, err := s.store.IsAncestor(ctx, h, tip); err != nil || in {
				return out, err
			}
		}
		out = append(out, c)
		h = gitstore.Hash{}
		if len(c.Parents) > 0 {
			h = c.Parents[0]
		}
	}
	return out, nil
}

// countBetween counts the first-parent commits from `to` back to `from`.
func (s *Space) countBetween(ctx context.Context, from, to gitstore.Hash) (int, error) {
	n := 0
	for h := to; h != from && !h.IsZero(); n++ {
		c, err := s.store.CommitInfo(ctx, h)
		if err != nil {
			return n, err
		}
		h = gitstore.Hash{}
		if len(c.Parents) > 0 {
			h = c.Parents[0]
		}
	}
	return n, nil
}

// replay rebuilds commit c on onto and returns the new commit (onto itself
// when c is empty). It returns errApplied when onto already holds every
// change c makes — a pt batch's own pages, not the log entry, spokes and
// hub that rebuilding it would add anyway. paths is non-empty when c changed a file that
// onto also changed, to something else: a conflict, nothing written — save
// for a file merge names, whose two versions it combines. A pt batch whose
// paths are all in this space is prepared again as a batch on onto, so its
// log entry, spokes and hub are computed on what is there now; anything
// else is applied path by path.
func (s *Space) replay(ctx context.Context, c gitstore.Commit, onto gitstore.Hash, opts SyncOptions) (gitstore.Hash, []string, error) {
	merge := opts.Merge
	var parent gitstore.Hash
	if len(c.Parents) > 0 {
		parent = c.Parents[0]
	}
	diff, err := s.store.Diff(ctx, parent, c.Hash)
	if err != nil {
		return gitstore.Hash{}, nil, err
	}
	tr, isBatch := ParseTrailers(c.Message)
	// A batch is rebuilt by the space it belongs to, which in a repository
	// of several spaces need not be the one syncing.
	bs, regenerate := s, isBatch
	if isBatch && len(diff) > 0 {
		o, err := s.spaceOf(ctx, c.Hash, onto, diff[0].Path)
		if err != nil {
			return gitstore.Hash{}, nil, err
		}
		if o == nil {
			regenerate = false // its space is gone upstream: file by file, which conflicts
		} else {
			bs = o
		}
	}
	touchedLog := false
	for _, fc := range diff {
		p, ok := bs.spacePath(fc.Path)
		if !ok {
			regenerate = false
		}
		if ok && (p == LogPath || strings.HasPrefix(p, LogDir)) {
			touchedLog = true
		}
	}
	var conflicts []string
	var apply []gitstore.FileChange
	merged := map[string][]byte{} // repo path → the merged file to write
	applied := true               // onto holds every change of apply
	for _, fc := range diff {
		p, inSpace := bs.spacePath(fc.Path)
		if regenerate && inSpace && IsIndexPage(p) {
			continue // derived: recomputed on onto
		}
		cur, err := s.store.BlobOf(ctx, onto, fc.Path)
		if errors.Is(err, gitstore.ErrNotFound) {
			cur, err = gitstore.Hash{}, nil
		}
		if err != nil {
			return gitstore.Hash{}, nil, err
		}
		if cur != fc.From && cur != fc.To {
			if m := merge[p]; inSpace && m != nil {
				data, upstream, ok, err := s.mergeFile(ctx, m, fc, cur)
				if err != nil {
					return gitstore.Hash{}, nil, err
				}
				if ok {
					merged[fc.Path] = data
					apply = append(apply, fc)
					applied = applied && BlobID(data) == cur.String()
					if rt := opts.Retitle[p]; rt != nil && isBatch {
						old := strings.TrimPrefix(Subject(c.Message), tr.Kind+": ")
						if t := rt(old, data, upstream); t != "" && t != old {
							c.Message = tr.Kind + ": " + oneLine(t) + strings.TrimPrefix(c.Message, Subject(c.Message))
						}
					}
					continue
				}
			}
			conflicts = append(conflicts, fc.Path)
			continue
		}
		apply = append(apply, fc)
		applied = applied && cur == fc.To
	}
	if len(conflicts) > 0 {
		for i, p := range conflicts {
			if sp, ok := bs.spacePath(p); ok {
				conflicts[i] = sp
			}
		}
		return gitstore.Hash{}, conflicts, nil
	}
	if applied && len(apply) > 0 {
		return gitstore.Hash{}, nil, errApplied
	}
	// dataOf is what c leaves at a path on onto: the merged file, else
	// c's own, else nothing (deleted).
	dataOf := func(fc gitstore.FileChange) (data []byte, deleted bool, err error) {
		if data, ok := merged[fc.Path]; ok {
			return data, false, nil
		}
		if fc.To.IsZero() {
			return nil, true, nil
		}
		data, err = s.store.ReadBlob(ctx, fc.To)
		return data, false, err
	}
	var changes []gitstore.Change
	if regenerate {
		if changes, err = bs.rebuildBatch(ctx, c, tr, apply, dataOf, onto, !touchedLog); err != nil {
			return gitstore.Hash{}, nil, err
		}
		if len(apply) == 0 && onlyLog(bs, changes) {
			// A batch of derived pages alone (lint catching the spokes up)
			// whose work the remote already did: only its log entry is left.
			return gitstore.Hash{}, nil, errApplied
		}
	} else {
		for _, fc := range apply {
			data, deleted, err := dataOf(fc)
			if err != nil {
				return gitstore.Hash{}, nil, err
			}
			if deleted {
				changes = append(changes, gitstore.Change{Path: fc.Path, Delete: true})
				continue
			}
			changes = append(changes, gitstore.Change{Path: fc.Path, Data: data})
		}
	}
	h, err := s.store.WriteCommit(ctx, gitstore.CommitRequest{
		Parent: onto, Changes: changes, Message: c.Message, Author: c.Author, Committer: c.Committer,
	})
	if errors.Is(err, gitstore.ErrNoChange) {
		return onto, nil, nil
	}
	return h, nil, err
}

func (s *Space) readBlobOrNil(ctx context.Context, h gitstore.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	return s.store.ReadBlob(ctx, h)
}

// mergeFile combines the local and upstream versions of a derived file
// that both changed, and returns upstream's too (for Retitle); ok is false
// when m refuses them (a conflict).
func (s *Space) mergeFile(ctx context.Context, m MergeFunc, fc gitstore.FileChange, cur gitstore.Hash) (data, upstream []byte, ok bool, err error) {
	base, err := s.readBlobOrNil(ctx, fc.From)
	if err != nil {
		return nil, nil, false, err
	}
	local, err := s.readBlobOrNil(ctx, fc.To)
	if err != nil {
		return nil, nil, false, err
	}
	if upstream, err = s.readBlobOrNil(ctx, cur); err != nil {
		return nil, nil, false, err
	}
	if data, err = m(base, local, upstream); err != nil {
		return nil, nil, false, nil
	}
	if data == nil {
		data = []byte{}
	}
	return data, upstream, true, nil
}

// rebuildBatch prepares a pt batch again on onto from its own pages, as
// Apply would: same id, kind, title, approver, author and time, so that its
// log entry reads as it did; the spokes and hub follow the pages.
func (s *Space) rebuildBatch(ctx context.Context, c gitstore.Commit, tr Trailers, pages []gitstore.FileChange, dataOf func(gitstore.FileChange) ([]byte, bool, error), onto gitstore.Hash, quiet bool) ([]gitstore.Change, error) {
	kind := content.AuthorHuman
	if tr.AgentName != "" {
		kind = content.AuthorAgent
	}
	b := Batch{
		Kind: tr.Kind, ID: tr.BatchID, ApprovedBy: tr.ApprovedBy, Reverts: tr.Reverts, Quiet: quiet,
		Title:  strings.TrimPrefix(Subject(c.Message), tr.Kind+": "),
		Author: Author{Name: c.Author.Name, Email: c.Author.Email, Kind: kind},
		When:   c.Author.When.UTC().Truncate(time.Second),
	}
	tx := newTx(s, Rev(onto.String()), b)
	for _, fc := range pages {
		p, _ := s.spacePath(fc.Path)
		data, deleted, err := dataOf(fc)
		if err != nil {
			return nil, err
		}
		if deleted {
			if err := tx.Delete(ctx, p, RolePage); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := tx.PutFile(ctx, p, data, RolePage); err != nil {
			return nil, err
		}
	}
	if err := tx.finish(ctx); err != nil {
		return nil, fmt.Errorf("sync: rebuild batch %s: %w", tr.BatchID, err)
	}
	changes := make([]gitstore.Change, 0, len(tx.order))
	for _, p := range tx.order {
		st := tx.staged[p]
		changes = append(changes, gitstore.Change{Path: s.repoPath(p), Data: st.data, Delete: st.deleted})
	}
	return changes, nil
}

func hexOrEmpty(h gitstore.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

// onlyLog reports whether a rebuilt batch's changes are all to the log.
func onlyLog(s *Space, changes []gitstore.Change) bool {
	for _, c := range changes {
		p, ok := s.spacePath(c.Path)
		if !ok || p != LogPath && !strings.HasPrefix(p, LogDir) {
			return false
		}
	}
	return true
}
