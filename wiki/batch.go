package wiki

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// Roles say why a batch wrote a path; a batch result lists every path with
// its role.
const (
	RoleSource    = "source"
	RoleSummary   = "summary"
	RolePage      = "page"
	RoleFanOut    = "fan-out"
	RoleSynthesis = "synthesis"
	RoleRetro     = "retro"
	RoleSpoke     = "spoke"
	RoleHub       = "hub"
	RoleLog       = "log"
	RoleConfig    = "config"
	RoleFindings  = "findings"
	RoleRestored  = "restored"
	RoleExpired   = "expired"
	RoleRetired   = "retired"   // superseded, retracted, obsolete or archived: its lifecycle fields changed
	RoleSuccessor = "successor" // the page that supersedes another, now listing it
)

// derived roles are recomputed on whatever head a batch lands on, so a
// concurrent change to them is not a conflict.
func derived(role string) bool {
	return role == RoleSpoke || role == RoleHub || role == RoleLog
}

// Batch describes one change to a space: what it is, who asked for it and
// who approved it. The pages come from the prepare function given to Apply.
type Batch struct {
	Kind       string    // one of the Kind constants
	Title      string    // one line: the commit subject after "<kind>: "
	Body       string    // optional commit body
	ApprovedBy string    // mandatory for ingest and import
	Author     Author    // who made the change; zero means "pt"
	When       time.Time // commit and page time; zero means now
	Reverts    string    // batch id, for revert batches
	ID         string    // batch id; generated when empty
	Quiet      bool      // write no log entry (lint keeps its own)
	// Propose writes the batch's commit on a branch of its own
	// (ProposalRef) for a person to review, instead of moving the space's
	// branch; Approve lands it.
	Propose bool
	// Finding is the id of the finding the batch fixes (a Finding
	// trailer), so that a proposal for it can be found again.
	Finding string
}

// Author is a commit identity. Kind says whether an agent or a person made
// the change, and is recorded in the commit.
type Author struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	Kind  string `json:"kind,omitempty"` // human | agent
}

// Written is a path a batch wrote or deleted.
type Written struct {
	Path     string `json:"path"`
	Role     string `json:"role"`
	Revision string `json:"revision,omitempty"` // blob id; "" when deleted
	Deleted  bool   `json:"deleted,omitempty"`
}

// Skipped is a path a batch meant to change but left alone, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Result is what a batch did: the JSON of `pt ingest --json` and of the MCP
// write tools.
type Result struct {
	Batch           string    `json:"batch,omitempty"`
	Kind            string    `json:"kind"`
	Commit          string    `json:"commit,omitempty"`
	Unchanged       bool      `json:"unchanged,omitempty"` // nothing to write: no commit was made
	Proposal        string    `json:"proposal,omitempty"`  // the branch holding a proposed batch (Batch.Propose)
	Pages           []Written `json:"pages"`
	NotUpdated      []Skipped `json:"not_updated,omitempty"`
	WorktreeSkipped []string  `json:"worktree_skipped,omitempty"`
	// Revised lists the pages the batch wrote as a new revision of a page
	// that was already there (a source ingested again).
	Revised []Revised `json:"revised,omitempty"`
}

// Revised is a page a batch revised, and the revision it replaced.
type Revised struct {
	Path string `json:"path"`
	From string `json:"from"` // blob id of the page before the batch
}

// NewBatchID returns a fresh batch id: b-YYYYMMDD-<6 hex>.
func NewBatchID(when time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return "b-" + when.UTC().Format("20060102") + "-" + hex.EncodeToString(b[:])
}

// maxAttempts bounds how often a batch is re-prepared after losing the
// compare-and-swap to a writer that does not take pt's lock (a git command).
const maxAttempts = 8

// Apply writes a batch as exactly one commit. prepare stages the batch's
// pages on a Tx that reads the current head; Apply adds the spokes, the hub
// and the log entry, and moves the branch with a compare-and-swap. When the
// branch moved under it and none of the batch's own paths changed, it
// prepares the batch again on the new head; otherwise it returns a
// ConflictError naming the paths. An error from prepare leaves the
// repository exactly as it was. A batch that landed while its work tree
// could not be written returns its Result with a *WorktreeError.
func (s *Space) Apply(ctx context.Context, b Batch, prepare func(ctx context.Context, tx *Tx) error) (*Result, error) {
	if b.When.IsZero() {
		b.When = s.Now()
	}
	b.When = b.When.UTC().Truncate(time.Second)
	if b.ID == "" {
		b.ID = NewBatchID(b.When)
	}
	unlock, err := s.store.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for attempt := 0; ; attempt++ {
		head, err := s.Head(ctx)
		if err != nil {
			return nil, err
		}
		tx := newTx(s, head, b)
		tx.stream = true
		res, again, err := s.attempt(ctx, tx, head, attempt, prepare)
		tx.discard()
		if again {
			continue
		}
		if res != nil && !res.Unchanged && (err == nil || errors.Is(err, ErrWorktreeIncomplete)) {
			unlock()
			s.afterCommitted(res)
		}
		return res, err
	}
}

// attempt prepares and commits a batch on head; again says that the
// branch moved under it and the batch may be prepared again.
func (s *Space) attempt(ctx context.Context, tx *Tx, head Rev, attempt int, prepare func(ctx context.Context, tx *Tx) error) (_ *Result, again bool, _ error) {
	b := tx.batch
	if err := prepare(ctx, tx); err != nil {
		return nil, false, err
	}
	if !tx.changed() {
		// A batch asked to catch the index up commits when that
		// alone changes something.
		if !tx.catchUp {
			return &Result{Kind: b.Kind, Unchanged: true, Pages: []Written{}, NotUpdated: tx.skipped}, false, nil
		}
		if err := tx.updateSpokes(ctx); err != nil {
			return nil, false, err
		}
		if !tx.changed() {
			return &Result{Kind: b.Kind, Unchanged: true, Pages: []Written{}, NotUpdated: tx.skipped}, false, nil
		}
		tx.spokesDone = true
	}
	if err := tx.finish(ctx); err != nil {
		return nil, false, err
	}
	if b.Propose {
		res, err := s.proposeCommit(ctx, tx)
		return res, false, err
	}
	res, err := s.commit(ctx, tx)
	if errors.Is(err, gitstore.ErrStale) && attempt < maxAttempts {
		if err := s.checkOverlap(ctx, head, tx); err != nil {
			return nil, false, err
		}
		return nil, true, nil
	}
	return res, false, err
}

func (s *Space) commit(ctx context.Context, tx *Tx) (*Result, error) {
	b := tx.batch
	req, res, err := s.commitRequest(tx)
	if err != nil {
		return nil, err
	}
	cr, err := s.store.Commit(ctx, req)
	if errors.Is(err, gitstore.ErrNoChange) {
		return &Result{Kind: b.Kind, Unchanged: true, Pages: []Written{}, NotUpdated: tx.skipped}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s batch %s: %w", b.Kind, b.ID, err)
	}
	res.Commit = cr.Hash.String()
	res.WorktreeSkipped = cr.SkippedWorktree
	if errors.Is(cr.WorktreeErr, gitstore.ErrWorktreeIncomplete) {
		return res, &WorktreeError{Op: b.Kind + " batch " + b.ID, Commit: res.Commit, Err: cr.WorktreeErr}
	}
	return res, nil
}

// commitRequest is the commit of a prepared batch on its head, and the
// result that lists its paths.
func (s *Space) commitRequest(tx *Tx) (gitstore.CommitRequest, *Result, error) {
	b := tx.batch
	var changes []gitstore.Change
	res := &Result{Batch: b.ID, Kind: b.Kind, Pages: []Written{}, NotUpdated: tx.skipped, Revised: tx.revised}
	for _, p := range tx.order {
		st := tx.staged[p]
		if st.deleted {
			changes = append(changes, gitstore.Change{Path: s.repoPath(p), Delete: true})
			res.Pages = append(res.Pages, Written{Path: p, Role: st.role, Deleted: true})
			continue
		}
		if st.packed {
			changes = append(changes, gitstore.Change{Path: s.repoPath(p), Blob: st.id})
		} else {
			changes = append(changes, gitstore.Change{Path: s.repoPath(p), Data: st.data})
		}
		res.Pages = append(res.Pages, Written{Path: p, Role: st.role, Revision: st.blob})
	}
	sig := gitstore.Signature{Name: b.Author.Name, Email: b.Author.Email, When: b.When}
	if sig.Name == "" {
		sig.Name = "pt"
	}
	if sig.Email == "" {
		sig.Email = "pt@localhost"
	}
	tr := Trailers{BatchID: b.ID, Kind: b.Kind, ApprovedBy: b.ApprovedBy, Reverts: b.Reverts, Finding: b.Finding}
	if b.Author.Kind == content.AuthorAgent {
		tr.AgentName = b.Author.Name
	}
	parent, err := toHash(tx.head)
	if err != nil {
		return gitstore.CommitRequest{}, nil, err
	}
	return gitstore.CommitRequest{Parent: parent, Changes: changes, Message: formatMessage(b.Kind, b.Title, b.Body, tr), Author: sig, Pack: tx.pack}, res, nil
}

// checkOverlap decides whether a batch that lost the race may be prepared
// again on the new head: only when the commits in between left the batch's
// own (non-derived) paths alone.
func (s *Space) checkOverlap(ctx context.Context, base Rev, tx *Tx) error {
	head, err := s.Head(ctx)
	if err != nil {
		return err
	}
	diff, err := s.Diff(ctx, base, head)
	if err != nil {
		return err
	}
	var clash []string
	for _, c := range diff {
		if st, ok := tx.staged[c.Path]; ok && !derived(st.role) {
			clash = append(clash, c.Path)
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return &ConflictError{Op: tx.batch.Kind + " batch " + tx.batch.ID, Paths: clash}
	}
	return nil
}

// staged is one path of a batch in preparation. Its content is either in
// data or, in a batch that streams, only in the batch's pack (data nil).
type staged struct {
	data    []byte
	blob    string // BlobID of the content
	id      gitstore.Hash
	packed  bool // the content is in tx.pack only
	deleted bool
	role    string
	// member is the page's spoke entry when the batch staged it from a
	// parsed page, so that the spokes need not parse it again.
	member   *member
	isMember bool
}

// Tx is a batch in preparation: reads see the head the batch is built on
// plus what the batch has staged so far.
type Tx struct {
	space   *Space
	head    Rev
	headID  gitstore.Hash // head, parsed
	batch   Batch
	staged  map[string]*staged
	order   []string
	skipped []Skipped
	revised []Revised
	// memberships records, for each page whose spoke entry may change, its
	// state before the batch, so spokes are updated incrementally.
	before map[string]*member
	// anchorRev is the space's last batch before this one, when people
	// committed since (see handChanges).
	anchorRev Rev
	// seeds are spokes to start from when absent at head (see Revert).
	seeds map[string]*PageAt
	// handEdited are spokes and the hub a person edited since the anchor.
	handEdited map[string]bool
	// catchUp commits the spokes' catch-up even when the batch writes
	// nothing of its own (CatchUpIndex); spokesDone says it was staged.
	catchUp, spokesDone bool
	// stream writes the content of the batch's pages into pack as they are
	// staged, keeping only their ids, so that a batch of any size holds
	// little memory (Apply's batches; see putData).
	stream bool
	pack   *gitstore.Pack
}

// discard drops what the batch wrote but did not commit: an unfinished
// pack is removed.
func (tx *Tx) discard() {
	if tx.pack != nil {
		tx.pack.Discard()
		tx.pack = nil
	}
}

func newTx(s *Space, head Rev, b Batch) *Tx {
	id, _ := toHash(head) // head comes from Space.Head: always a full hash or ""
	return &Tx{space: s, head: head, headID: id, batch: b, staged: map[string]*staged{}, before: map[string]*member{}, seeds: map[string]*PageAt{}, handEdited: map[string]bool{}}
}

// headBlob returns the blob id of p at the batch's head, "" when p is not
// a file there. It reads trees only, never the file.
func (tx *Tx) headBlob(ctx context.Context, p string) string {
	if tx.headID.IsZero() {
		return ""
	}
	h, err := tx.space.store.BlobOf(ctx, tx.headID, tx.space.repoPath(p))
	if err != nil {
		return ""
	}
	return h.String()
}

// Head is the commit the batch is built on.
func (tx *Tx) Head() Rev { return tx.head }

// Batch is the batch being prepared (its ID and time are final).
func (tx *Tx) Batch() Batch { return tx.batch }

// Describe sets the batch's title and body (the commit message and the log
// entry). It is for a batch whose description depends on what it finds at
// the head it is built on: a batch prepared again after another writer
// landed describes what it commits, not what it planned on the old head.
// A Tx is fresh on every attempt, so prepare calls it each time.
func (tx *Tx) Describe(title, body string) {
	tx.batch.Title, tx.batch.Body = title, body
}

// Space is the space the batch writes to.
func (tx *Tx) Space() *Space { return tx.space }

// ReadFile returns a file as the batch sees it; ErrNotFound when it does not
// exist at head or the batch deleted it.
func (tx *Tx) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if st, ok := tx.staged[p]; ok {
		if st.deleted {
			return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
		}
		if st.packed {
			return tx.pack.Blob(st.id)
		}
		return st.data, nil
	}
	if tx.head == "" {
		return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
	}
	data, _, err := tx.space.ReadFile(ctx, tx.head, p)
	return data, err
}

// ReadPage parses a page as the batch sees it.
func (tx *Tx) ReadPage(ctx context.Context, p string) (*PageAt, error) {
	data, err := tx.ReadFile(ctx, p)
	if err != nil {
		return nil, err
	}
	pg, err := content.Parse(p, data)
	if err != nil {
		return nil, err
	}
	return &PageAt{Path: p, Revision: BlobID(data), Page: pg, Raw: data}, nil
}

// Exists reports whether p exists as the batch sees it.
func (tx *Tx) Exists(ctx context.Context, p string) bool {
	_, err := tx.ReadFile(ctx, p)
	return err == nil
}

// Put stages a page. The page's topics, title and summary keep the spokes
// and the hub in step when the batch is finished.
func (tx *Tx) Put(ctx context.Context, p string, pg *content.Page, role string) (string, error) {
	data, err := pg.Bytes()
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	return tx.PutRendered(ctx, p, pg, data, role)
}

// PutRendered stages a page already rendered: data is pg.Bytes(), which
// the caller may compute on another goroutine. The page's topics, title
// and summary are taken from pg, not parsed from data again.
func (tx *Tx) PutRendered(ctx context.Context, p string, pg *content.Page, data []byte, role string) (string, error) {
	return tx.put(ctx, p, data, role, memberOf(p, pg))
}

// PutFile stages raw bytes at p and returns their blob id. Writing what is
// already there stages nothing. A symbolic link at p is refused
// (ErrSymlink): pt never replaces one with a file.
func (tx *Tx) PutFile(ctx context.Context, p string, data []byte, role string) (string, error) {
	return tx.put(ctx, p, data, role, nil)
}

// put stages data at p; m, when not nil, is its spoke entry.
func (tx *Tx) put(ctx context.Context, p string, data []byte, role string, m *member) (string, error) {
	if err := tx.notSymlink(ctx, p); err != nil {
		return "", err
	}
	id := gitstore.HashBlob(data)
	blob := id.String()
	if _, ok := tx.staged[p]; !ok && tx.headBlob(ctx, p) == blob {
		return blob, nil
	}
	if err := tx.remember(ctx, p); err != nil {
		return "", err
	}
	st := &staged{data: data, blob: blob, id: id, role: role, member: m, isMember: m != nil}
	if err := tx.putData(st); err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	tx.stage(p, st)
	return blob, nil
}

// putData writes a staged page's content into the batch's pack, when the
// batch streams, and lets go of it. The spokes, the hub and the log stay
// in memory: they are few, and a batch may rewrite them more than once.
func (tx *Tx) putData(st *staged) error {
	if !tx.stream || derived(st.role) {
		return nil
	}
	if tx.pack == nil {
		pk, err := tx.space.store.NewPack()
		if err != nil {
			return err
		}
		tx.pack = pk
	}
	if !tx.pack.Has(st.id) {
		if _, err := tx.pack.AddBlob(st.data); err != nil {
			return err
		}
	}
	st.data, st.packed = nil, true
	return nil
}

// Delete stages the removal of p. A symbolic link at p is refused
// (ErrSymlink).
func (tx *Tx) Delete(ctx context.Context, p string, role string) error {
	if err := tx.notSymlink(ctx, p); err != nil {
		return err
	}
	if err := tx.remember(ctx, p); err != nil {
		return err
	}
	tx.stage(p, &staged{deleted: true, role: role})
	return nil
}

// Skip records that the batch left p alone, and why (a human-owned page).
func (tx *Tx) Skip(p, reason string) {
	tx.skipped = append(tx.skipped, Skipped{Path: p, Reason: reason})
}

// Revise records that the batch writes p as a new revision of the page
// that was there at revision from; the result lists it.
func (tx *Tx) Revise(p, from string) {
	tx.revised = append(tx.revised, Revised{Path: p, From: from})
}

func (tx *Tx) stage(p string, st *staged) {
	if _, ok := tx.staged[p]; !ok {
		tx.order = append(tx.order, p)
	}
	tx.staged[p] = st
}

// Staged lists the paths staged so far, in staging order.
func (tx *Tx) Staged() []string { return slices.Clone(tx.order) }

// changed reports whether anything staged differs from head, comparing
// blob ids.
func (tx *Tx) changed() bool {
	ctx := context.Background()
	for _, p := range tx.order {
		st := tx.staged[p]
		old := tx.headBlob(ctx, p)
		if st.deleted != (old == "") || !st.deleted && old != st.blob {
			return true
		}
	}
	return false
}

// finish adds what every batch carries besides its own pages: the spokes of
// the topics it touched, the hub when the topic set changed, and its log
// entry.
func (tx *Tx) finish(ctx context.Context) error {
	if !tx.spokesDone {
		if err := tx.updateSpokes(ctx); err != nil {
			return err
		}
	}
	if tx.batch.Quiet {
		return nil
	}
	return tx.appendLog(ctx)
}
