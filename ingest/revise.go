package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/wiki"
)

// target is where an ingest writes: the source and summary paths and,
// when the source is already there, the pages it revises.
type target struct {
	src, sum string
	prev     *wiki.PageAt // the source page before the batch; nil for a new source
	prevSum  *wiki.PageAt // its summary before the batch, if any
}

// updateTarget is the page Source.Update names, which must be a source.
func (in *checked) updateTarget(ctx context.Context, tx *wiki.Tx, op, name string) (*target, error) {
	p, err := content.CleanPath(strings.TrimSpace(name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	pa, err := tx.ReadPage(ctx, p)
	switch {
	case errors.Is(err, wiki.ErrNotFound):
		return nil, fmt.Errorf("%s %s: %w: no such page", op, p, errRevision)
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", op, p, err)
	case pa.Page.Meta.Kind != content.KindSource:
		return nil, fmt.Errorf("%s %s: %w: it is no source (kind %q)", op, p, errRevision, pa.Page.Meta.Kind)
	}
	return revising(ctx, tx, pa), nil
}

// revising is the target that revises the source page pa and its summary.
func revising(ctx context.Context, tx *wiki.Tx, pa *wiki.PageAt) *target {
	t := &target{src: pa.Path, sum: summariesDir + strings.TrimPrefix(pa.Path, sourcesDir), prev: pa}
	t.readSummary(ctx, tx)
	return t
}

// readSummary finds the summary pt derived from the source being revised.
func (t *target) readSummary(ctx context.Context, tx *wiki.Tx) {
	if sum := summaryOf(ctx, tx.ReadPage, t.prev); sum != nil {
		t.sum, t.prevSum = sum.Path, sum
	}
}

// checkRevision refuses a revision that would change what the source is,
// revise retired knowledge, or let an agent rewrite a person's page.
func (in *checked) checkRevision(t *target) error {
	m := t.prev.Page.Meta
	switch {
	case content.Retired(m.Status):
		return fmt.Errorf("ingest %s: %w: it is %s; ingest the new text under another --slug and supersede it", t.src, errRevision, m.Status)
	case in.kindGiven && m.SourceKind != "" && m.SourceKind != in.kind:
		return fmt.Errorf("ingest %s: %w: it is a %s, not a %s (a revision keeps its kind; use another --slug for a new source)", t.src, errRevision, m.SourceKind, in.kind)
	case in.src.Author.Kind == content.AuthorAgent && m.OwnedByHuman():
		return fmt.Errorf("ingest %s: %w: a person owns it (%s); an agent may not rewrite it", t.src, errRevision, ownerName(m.Author))
	}
	return nil
}

func ownerName(a content.Author) string {
	if a.Name == "" {
		return "no author recorded"
	}
	return a.Name
}

// kind is the source kind a revision keeps.
func (t *target) kind(given string) string {
	if t.prev != nil && t.prev.Page.Meta.SourceKind != "" {
		return t.prev.Page.Meta.SourceKind
	}
	return given
}

// sameText reports whether pg's text is the source's as it is now.
func (t *target) sameText(pg *content.Page) bool {
	return bytes.Equal(bytes.TrimSpace(t.prev.Page.Body), bytes.TrimSpace(pg.Body))
}

// summaryInput completes in for the summary being rewritten: its creation
// time and the keys people added to it stay.
func (t *target) summaryInput(in summaryInput) summaryInput {
	if t.prevSum != nil {
		in.prev = t.prevSum.Page
		if c := t.prevSum.Page.Meta.Created; !c.IsZero() {
			in.created = c
		}
	}
	return in
}

// refresh handles the same text ingested again. When the summary is
// pinned to the source as it is and active, nothing is written. When a
// person changed the source in git since (the pin drifted, lint marked the
// summary stale), the summary alone is regenerated from the source as it
// is and pinned to it; the source page stays as the person left it.
func (in *checked) refresh(ctx context.Context, tx *wiki.Tx, t *target) error {
	if s := t.prevSum; s != nil && s.Page.Meta.Provenance.DerivedFrom[0].Revision == t.prev.Revision && s.Page.Meta.Active(tx.Batch().When) {
		tx.Skip(t.src, "identical source already ingested; nothing to write")
		return nil
	}
	m := t.prev.Page.Meta
	title := m.Title
	if title == "" {
		title = in.title
	}
	sum := summary.Summarize(title, t.prev.Page.Body, summary.Options{Kind: t.prev.Page.Meta.SourceKind})
	line := oneLine(in.src.Summary)
	if line == "" {
		line = sum.Line
	}
	if line == "" {
		line = title
	}
	topics := m.Topics
	if ts := cleanTopics(in.src.Topics); len(ts) > 0 {
		topics = ts
	}
	if t.prevSum != nil {
		tx.Revise(t.sum, t.prevSum.Revision)
	}
	return putSummary(ctx, tx, t.sum, t.summaryInput(summaryInput{
		title: title, kind: t.kind(in.kind), topics: topics, line: line, source: t.src, revision: t.prev.Revision,
		summary: sum, approvedBy: in.src.ApprovedBy, created: tx.Batch().When,
	}))
}

// withLifecycle is the new text of a revised source carrying the lifecycle
// links of the page it revises: what it supersedes stays superseded by it.
func withLifecycle(pg, prev *content.Page) *content.Page {
	if len(prev.Meta.Supersedes) == 0 || len(pg.Meta.Supersedes) > 0 {
		return pg
	}
	out := *pg
	out.Meta.Supersedes = prev.Meta.Supersedes
	return &out
}
