package ingest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Reap expires, in one reap batch, every active page whose `expires` is
// before now: its frontmatter gets status: expired and a new updated time,
// its body is kept byte for byte. An expired page drops out of the spokes
// (the spoke writer lists only active pages) and out of retrieval. Nothing
// to expire writes nothing: the result is Unchanged and no commit is made,
// so the reaper can run on any schedule.
//
// Pages owned by people are expired too: an `expires` date is an
// instruction on the page itself (set by its owner, or by the file-back
// that wrote it), and only the status changes. Pages whose frontmatter does
// not parse or whose expires is not a date are left to lint.
func Reap(ctx context.Context, s *wiki.Space, now time.Time, approvedBy string) (*wiki.Result, error) {
	// now is when the decision is made as of; the batch is dated by the
	// space's clock, so reaping as of another day rewrites no history.
	var when time.Time
	if now.IsZero() {
		now = s.Now()
		when = now
	}
	if err := CheckClock(now); err != nil {
		return nil, fmt.Errorf("reap: %w", err)
	}
	if err := CheckLine("reap", "approved_by", approvedBy); err != nil {
		return nil, err
	}
	now = now.UTC().Truncate(time.Second)
	head, err := s.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("reap: %w", err)
	}
	due, err := dueToExpire(ctx, s, head, now, func(ctx context.Context, p string) (*wiki.PageAt, error) { return s.ReadPage(ctx, head, p) })
	if err != nil {
		return nil, err
	}
	if len(due) == 0 {
		return &wiki.Result{Kind: wiki.KindReap, Unchanged: true, Pages: []wiki.Written{}}, nil
	}
	b := wiki.Batch{
		Kind:       wiki.KindReap,
		Title:      fmt.Sprintf("expire %d time_bound page%s past their date", len(due), pluralS(len(due))),
		Body:       reapBody(due),
		ApprovedBy: oneLine(approvedBy),
		Author:     wiki.Author{Name: "pt", Kind: content.AuthorAgent},
		When:       when,
	}
	return s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		// Read again through tx: the batch may be rebuilt on a newer head.
		due, err := dueToExpire(ctx, s, tx.Head(), now, tx.ReadPage)
		if err != nil {
			return err
		}
		for _, pa := range due {
			pa.Page.Meta.Status = content.StatusExpired
			pa.Page.Meta.Updated = now
			if _, err := tx.Put(ctx, pa.Path, pa.Page, wiki.RoleExpired); err != nil {
				return err
			}
		}
		return nil
	})
}

// dueToExpire lists the active pages at rev whose expiry is before now.
func dueToExpire(ctx context.Context, s *wiki.Space, rev wiki.Rev, now time.Time, read func(context.Context, string) (*wiki.PageAt, error)) ([]*wiki.PageAt, error) {
	es, err := s.Pages(ctx, rev)
	if err != nil {
		return nil, fmt.Errorf("reap: %w", err)
	}
	var out []*wiki.PageAt
	for _, e := range es {
		if wiki.IsIndexPage(e.Path) {
			continue
		}
		pa, err := read(ctx, e.Path)
		if err != nil {
			continue // unreadable or malformed: lint reports it
		}
		m := pa.Page.Meta
		t, ok := m.ExpiresAt()
		if !ok || !now.After(t) || (m.Status != "" && m.Status != content.StatusActive) {
			continue
		}
		out = append(out, pa)
	}
	return out, nil
}

// reapBody lists the expired pages and their dates in the commit message.
func reapBody(due []*wiki.PageAt) string {
	var b strings.Builder
	for _, pa := range due {
		fmt.Fprintf(&b, "- %s (expires %s)\n", pa.Path, pa.Page.Meta.Expires)
	}
	return b.String()
}
