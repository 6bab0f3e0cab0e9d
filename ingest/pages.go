package ingest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/wiki"
)

// sourceMeta is what pt records on a source page besides the source's own
// frontmatter keys.
type sourceMeta struct {
	title, kind, summary, approvedBy, origin string
	topics, aliases, appliesTo               []string // appliesTo nil: the source's own frontmatter's
	author                                   content.Author
	created                                  time.Time // zero: the batch time (a new page)
}

// putSource stages a source page: the source verbatim under pt's
// frontmatter (its own unknown keys kept), and returns its blob id, which
// the summary pins.
func putSource(ctx context.Context, tx *wiki.Tx, p string, pg *content.Page, m sourceMeta) (string, error) {
	out, data, err := sourceBytes(pg, m, tx.Batch())
	if err != nil {
		return "", err
	}
	return tx.PutRendered(ctx, p, out, data, wiki.RoleSource)
}

// sourceBytes renders a source page for batch b: the page and its bytes.
// pg is left as it is, so that a batch prepared again renders from the
// source as read.
func sourceBytes(pg *content.Page, m sourceMeta, b wiki.Batch) (*content.Page, []byte, error) {
	meta := pg.Meta
	meta.Title = m.title
	if len(m.aliases) > 0 {
		meta.Aliases = m.aliases
	}
	meta.Kind = content.KindSource
	meta.SourceKind = m.kind
	meta.Topics = m.topics
	meta.Summary = m.summary
	if m.appliesTo != nil {
		meta.AppliesTo = m.appliesTo
	}
	meta.Author = m.author
	meta.Provenance = content.Provenance{Batch: b.ID, ApprovedBy: m.approvedBy, Origin: m.origin}
	meta.Created = m.created
	if meta.Created.IsZero() {
		meta.Created = b.When
	}
	meta.Updated = b.When
	out := *pg
	out.Meta = meta
	data, err := out.Bytes()
	return &out, data, err
}

// summaryInput is what a summary page is built from.
type summaryInput struct {
	title, kind, line, source, revision, approvedBy string
	topics, aliases, appliesTo                      []string
	summary                                         summary.Summary
	created                                         time.Time
	prev                                            *content.Page // the page being rewritten, if any
}

// putSummary stages the source_summary of a source: derived_from pinned to
// the source's blob, a link to the source, the extractive summary.
func putSummary(ctx context.Context, tx *wiki.Tx, p string, in summaryInput) error {
	pg, data, err := summaryBytes(p, in, tx.Batch())
	if err != nil {
		return err
	}
	_, err = tx.PutRendered(ctx, p, pg, data, wiki.RoleSummary)
	return err
}

// summaryBytes renders the summary page at p for batch b: the page and
// its bytes.
func summaryBytes(p string, in summaryInput, b wiki.Batch) (*content.Page, []byte, error) {
	var body strings.Builder
	body.WriteString("# " + in.title + "\n\n")
	body.WriteString("Summary of the " + kindLabel(in.kind) + " [" + content.EscapeInline(in.title) + "](" + linkDest(content.RelLink(p, in.source)) + ").\n\n")
	if in.line != "" {
		body.WriteString(in.line + "\n\n")
	}
	body.WriteString(in.summary.Markdown())
	created := in.created
	if created.IsZero() {
		created = b.When
	}
	meta := content.Meta{
		Title:     in.title,
		Aliases:   in.aliases,
		Kind:      content.KindSummary,
		Topics:    in.topics,
		AppliesTo: in.appliesTo,
		Summary:   in.line,
		Author:    summarizer,
		Provenance: content.Provenance{Batch: b.ID, ApprovedBy: in.approvedBy,
			DerivedFrom: []content.Ref{{Path: in.source, Revision: in.revision}}},
		Created: created,
		Updated: b.When,
	}
	text := []byte(strings.TrimRight(body.String(), "\n") + "\n")
	pg := content.NewPage(meta, text)
	if in.prev != nil {
		// Rewritten from the existing page, so that the keys a person
		// added to its frontmatter stay (DESIGN.md §3).
		rewritten := *in.prev
		rewritten.Meta, rewritten.Body = meta, text
		pg = &rewritten
	}
	data, err := pg.Bytes()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p, err)
	}
	return pg, data, nil
}

func kindLabel(k string) string {
	switch k {
	case "", SourceOther:
		return "source"
	case SourceDoc:
		return "document"
	case SourceChat:
		return "chat"
	default:
		return strings.ReplaceAll(k, "-", " ")
	}
}

// linkDest escapes what would end a Markdown link destination early.
func linkDest(p string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(p)
}
