package lint

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Options configures a lint run. The zero value lints HEAD now, commits the
// findings as the author "pt" and keeps resolved rows DefaultRetention.
type Options struct {
	Now       time.Time     // the decision's time: expiry and first/last seen; zero reads the space's clock
	DryRun    bool          // check and compare, but write nothing (CI, read-only checkouts)
	Author    wiki.Author   // who the lint batch is by; zero means "pt"
	Retention time.Duration // how long resolved rows are kept; zero means DefaultRetention

	// noFacts reads and parses every page, keeping no facts (the tests'
	// reference run).
	noFacts bool
}

// Report is what a lint run saw and did: the --json output of pt lint.
type Report struct {
	Space    string    `json:"space"`    // the space's directory relative to the repository root, "" at the root
	Name     string    `json:"name"`     // kb.yaml name
	Commit   string    `json:"commit"`   // the revision that was linted
	Findings []Finding `json:"findings"` // every row: open, and resolved within the retention
	Change   Change    `json:"change"`
	// MarkedStale lists the agent-owned pages whose derived_from drifted and
	// that the lint batch marked status: stale (on a dry run: would mark).
	MarkedStale []string `json:"marked_stale,omitempty"`
	// CaughtUp says the batch also brings the spokes and hub up to date
	// with pages people changed in git (on a dry run: would).
	CaughtUp bool         `json:"caught_up,omitempty"`
	Batch    *wiki.Result `json:"batch,omitempty"` // the lint batch; nil on a dry run or when nothing changed
	DryRun   bool         `json:"dry_run,omitempty"`
}

// Open returns the open findings.
func (r *Report) Open() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Open() {
			out = append(out, f)
		}
	}
	return out
}

// Run lints the space at HEAD and, unless DryRun, commits the result as one
// lint batch: findings.json with the lifecycle carried forward from the
// rows committed at HEAD, the agent-owned pages whose sources drifted
// marked stale (kb.yaml lint.stale_on_drift, on by default), and a log
// entry. A run that changes nothing but last_seen within a day makes no
// commit. Lint never deletes a page nor touches a page's body.
func Run(ctx context.Context, s *wiki.Space, opts Options) (*Report, error) {
	p, err := Prepare(ctx, s, opts)
	if err != nil {
		return nil, err
	}
	return p.Commit(ctx)
}

// Prepared is a lint run checked at one head and not committed yet. Run is
// Prepare then Commit; pt lint --all prepares every space before it commits
// any, so that a space lint cannot read leaves the repository as it was.
type Prepared struct {
	s    *wiki.Space
	opts Options
	now  time.Time
	when time.Time // the batch's time: zero (the space's clock) under --now
	head wiki.Rev
	plan *plan
	// facts keeps what the checks read of pages by blob, across runs.
	facts *factStore
}

// Prepare checks the space at HEAD and computes what Run would commit,
// writing nothing. Its error is the one Run would return before writing.
func Prepare(ctx context.Context, s *wiki.Space, opts Options) (*Prepared, error) {
	// --now says when the decision is made as of; the batch itself is
	// dated by the space's clock, so a lint as of another day does not
	// rewrite history's dates or the log's month.
	now, when := opts.Now, time.Time{}
	if now.IsZero() {
		now = s.Now()
		when = now
	}
	now = now.UTC().Truncate(time.Second)
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	facts := openFactStore(factsPath(s.StateDir()))
	if opts.noFacts {
		facts = nil
	}
	plan, err := planRun(ctx, s, head, now, opts.Retention, facts)
	if err != nil {
		return nil, err
	}
	return &Prepared{s: s, opts: opts, now: now, when: when, head: head, plan: plan, facts: facts}, nil
}

// Commit commits the prepared run as one lint batch (nothing on a dry run)
// and returns its report. When another batch landed since Prepare and
// changed the space, the space is linted again as it is now.
func (p *Prepared) Commit(ctx context.Context) (*Report, error) {
	s, plan, head := p.s, p.plan, p.head
	if p.opts.DryRun {
		plan.report.DryRun = true
		return plan.report, nil
	}
	b := wiki.Batch{Kind: wiki.KindLint, Author: p.opts.Author, When: p.when}
	res, err := s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		if tx.Head() != head {
			same, err := sameSpace(ctx, s, head, tx.Head())
			if err != nil {
				return err
			}
			if same {
				// Another space's batch (pt lint --all) or a change
				// elsewhere: the plan holds at the new head.
				plan.report.Commit = string(tx.Head())
			} else {
				// Another batch changed the space: lint what is there now.
				np, err := planRun(ctx, s, tx.Head(), p.now, p.opts.Retention, p.facts)
				if err != nil {
					return err
				}
				plan = np
			}
			head = tx.Head()
		}
		// The message and log entry describe the plan staged, which is
		// not the first one when another writer landed.
		tx.Describe(plan.title(), plan.body())
		return plan.stage(ctx, tx)
	})
	if err != nil {
		return nil, fmt.Errorf("lint: %w", err)
	}
	if !res.Unchanged {
		plan.report.Batch = res
	}
	return plan.report, nil
}

// sameSpace reports whether the space's files are the same at both
// commits, so that a plan made at one holds at the other.
func sameSpace(ctx context.Context, s *wiki.Space, a, b wiki.Rev) (bool, error) {
	if a == "" || b == "" {
		return a == b, nil
	}
	diff, err := s.Diff(ctx, a, b)
	return len(diff) == 0, err
}

// plan is a run's outcome computed at one head, ready to be staged.
type plan struct {
	report *Report
	now    time.Time
	pages  []staleWrite // to mark stale
	data   []byte       // findings.json to write; nil when it stays as it is
	// catchUp: the spokes and hub lag behind pages people changed in git,
	// and the checks saw them caught up, so the batch writes that too.
	catchUp bool
}

func planRun(ctx context.Context, s *wiki.Space, head wiki.Rev, now time.Time, retention time.Duration, facts *factStore) (*plan, error) {
	rep := &Report{Space: strings.TrimSuffix(s.Prefix(), "/"), Name: s.Config().Name, Commit: string(head), Findings: []Finding{}}
	if head == "" {
		return &plan{report: rep, now: now}, nil
	}
	snap, err := load(ctx, s, head, facts)
	if err != nil {
		return nil, err
	}
	r := snap.check(now)
	prev, err := Findings(ctx, s, head)
	if err != nil {
		return nil, fmt.Errorf("lint: %w (fix or delete the file; lint rewrites it)", err)
	}
	p := &plan{report: rep, now: now, catchUp: snap.catchUp}
	rep.CaughtUp = snap.catchUp
	if s.Config().StaleOnDrift() {
		for _, path := range r.derivedDrift {
			pg := snap.byPath[path]
			m := pg.Meta
			if m.ownedByHuman() || (m.Status != "" && m.Status != content.StatusActive) {
				continue // a person's page gets findings only
			}
			w, err := markStale(ctx, s, pg)
			if err != nil {
				return nil, err
			}
			p.pages = append(p.pages, w)
			rep.MarkedStale = append(rep.MarkedStale, path)
			// Check the space as the batch leaves it, so that what marking
			// stale changes (a citation of this page now drifts) is found
			// by this run, not by the next.
			snap.files[path] = wiki.BlobID(w.data)
			pg.parse(w.data)
			pg.pending = w.data
		}
		if len(p.pages) > 0 {
			// The spokes follow the pages marked stale (one may empty a
			// spoke a page links to): check them as the batch leaves them.
			staged := make([]wiki.PendingFile, len(p.pages))
			for i, w := range p.pages {
				staged[i] = wiki.PendingFile{Path: w.path, Data: w.data}
			}
			pending, err := s.IndexCatchUp(ctx, head, staged...)
			if err != nil {
				return nil, err
			}
			// The stale pages as written, then what the batch rewrites of
			// them (a hub marked stale gets its list): each overlay starts
			// from HEAD.
			snap.overlay(append(staged, pending...))
			rep.CaughtUp = rep.CaughtUp && writesIndex(pending)
			r = snap.check(now)
		}
	}
	r.withGaps(s, prev, now)
	merged, ch := mergeOwned(prev, r.findings, now, retention, lintOwns)
	rep.Findings, rep.Change = merged, ch
	old, _, err := s.ReadFile(ctx, head, FindingsPath)
	if err != nil && !errors.Is(err, wiki.ErrNotFound) {
		return nil, err
	}
	if data := encodeFindings(merged); string(data) != string(old) && (old != nil || len(merged) > 0) {
		p.data = data
	}
	return p, nil
}

// staleWrite is a page the lint batch marks stale, as it writes it.
type staleWrite struct {
	path string
	pg   *content.Page
	data []byte
}

// markStale reads p again (the snapshot keeps no text) and marks it
// stale, in the frontmatter only: the body stays byte for byte.
func markStale(ctx context.Context, s *wiki.Space, p *page) (staleWrite, error) {
	raw := p.pending
	if raw == nil {
		var err error
		if raw, err = s.ReadBlob(ctx, p.blob); err != nil {
			return staleWrite{}, fmt.Errorf("lint %s: %w", p.path, err)
		}
	}
	pg, err := content.Parse(p.path, raw)
	if err != nil {
		return staleWrite{}, fmt.Errorf("lint %s: %w", p.path, err)
	}
	pg.Meta.Status = content.StatusStale
	data, err := pg.Bytes()
	if err != nil {
		return staleWrite{}, fmt.Errorf("lint %s: %w", p.path, err)
	}
	return staleWrite{path: p.path, pg: pg, data: data}, nil
}

// stage writes the plan into the lint batch.
func (p *plan) stage(ctx context.Context, tx *wiki.Tx) error {
	if p.catchUp {
		tx.CatchUpIndex()
	}
	for _, w := range p.pages {
		if _, err := tx.Put(ctx, w.path, w.pg, wiki.RolePage); err != nil {
			return err
		}
	}
	if p.data != nil {
		if _, err := tx.PutFile(ctx, FindingsPath, p.data, wiki.RoleFindings); err != nil {
			return err
		}
	}
	return nil
}

func (p *plan) title() string {
	open := len(p.report.Open())
	ch := p.report.Change
	t := fmt.Sprintf("%d open finding%s (%d new, %d resolved)", open, plural(open), ch.Opened, ch.Resolved)
	if n := len(p.report.MarkedStale); n > 0 {
		t += fmt.Sprintf(", %d page%s marked stale", n, plural(n))
	}
	if p.report.CaughtUp {
		t += ", spokes caught up with pages edited in git"
	}
	return t
}

// body lists what changed, bounded so that a first run over a large
// corpus does not write a commit message of thousands of lines.
func (p *plan) body() string {
	const maxLines = 50
	var lines []string
	for _, f := range p.report.Findings {
		switch {
		case f.Open() && f.FirstSeen.Equal(p.now):
			lines = append(lines, fmt.Sprintf("new: %s %s: %s", f.Check, location(f), f.Message))
		case !f.Open() && f.ResolvedAt.Equal(p.now):
			lines = append(lines, fmt.Sprintf("resolved: %s %s", f.Check, location(f)))
		}
	}
	for _, path := range p.report.MarkedStale {
		lines = append(lines, "stale: "+path+" (derived_from drifted)")
	}
	if len(lines) > maxLines {
		n := len(lines) - maxLines
		lines = append(lines[:maxLines], fmt.Sprintf("... and %d more", n))
	}
	return strings.Join(lines, "\n")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func location(f Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Path
}

// writesIndex reports whether a batch's pending files include a spoke, a
// spoke's part or the hub.
func writesIndex(files []wiki.PendingFile) bool {
	for _, f := range files {
		if wiki.IsIndexPage(f.Path) && f.Path != wiki.LogPath {
			return true
		}
	}
	return false
}
