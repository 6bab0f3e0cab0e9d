package ingest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/ingest/internal/taxonomy"
	"github.com/ptwiki/pt/wiki"
)

// Layout of what ingest writes (DESIGN.md §2).
const (
	sourcesDir   = wiki.SourcesDir
	summariesDir = wiki.SummariesDir
)

// summarizer is the author of the summary pages pt derives: they are
// rewritten by pt whenever their source changes, so they are agent-owned
// whoever ingested the source.
var summarizer = content.Author{Kind: content.AuthorAgent, Name: "pt"}

// Ingest writes a source as one batch (kind ingest): the source page
// sources/<slug>.md, its summary summaries/<slug>.md pinned to the source's
// blob, a link back on every related agent-owned page, and (through
// wiki.Apply) the spokes, the hub and the log entry. Everything is checked
// before anything is written: a refused source leaves the repository as it
// was.
//
// Re-ingesting a source that is already in the space (the page
// Source.Update names, the source page read as Source.File, the page whose
// origin is Source.File, or the same slug) revises it: a new revision of the same
// source page, its summary regenerated and pinned to it, in one batch
// whose result lists the revision. The same text again writes nothing
// (Unchanged, naming the page) unless its summary lags behind it (a person
// edited the source in git): then the summary alone is refreshed. A slug
// held by a page that is no source gets the first free suffix.
func Ingest(ctx context.Context, s *wiki.Space, src Source) (*wiki.Result, error) {
	in, err := checkSource(s, src)
	if err != nil {
		return nil, err
	}
	title := in.title
	if title == "" {
		title = "revise " + strings.TrimSpace(src.Update)
	}
	if err := checkAppliesTo(ctx, s, src.AppliesTo); err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	b := wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: in.src.ApprovedBy, Author: src.Author, When: src.When, Propose: src.Propose}
	res, err := s.Apply(ctx, b, in.stage)
	if err == nil {
		keepOrigins(ctx, s, in.base, res)
	}
	return res, err
}

// checked is a source that passed every check, ready to stage.
type checked struct {
	src       Source
	title     string
	aliases   []string
	kind      string
	kindGiven bool // the caller named the kind (a revision must keep it)
	slug      string
	slugGiven bool          // the caller named the slug: what is there is revised
	origin    *origin       // the file read, nil for none
	page      *content.Page // the source as parsed: its own frontmatter keys survive
	related   []string
	base      wiki.Rev // the head the batch was last staged on: its commit's parent
}

// checkSource runs every check that does not need the repository's head.
func checkSource(s *wiki.Space, src Source) (*checked, error) {
	// A person's ingest names who approved it; an agent's may carry no
	// approver (an agent's token): its batch then records the agent alone.
	// A proposal is approved by a person later, with pt approve.
	if src.Propose {
		src.ApprovedBy = ""
	} else if src.Author.Kind != content.AuthorAgent || src.ApprovedBy != "" {
		if err := checkApprover("ingest", src.ApprovedBy); err != nil {
			return nil, err
		}
	}
	fields := []lineField{{"title", src.Title}, {"summary", src.Summary}, {"slug", src.Slug}, {"update", src.Update}, {"kind", src.Kind}, {"author", src.Author.Name}}
	for _, t := range src.Topics {
		fields = append(fields, lineField{"topic", t})
	}
	for _, r := range src.Related {
		fields = append(fields, lineField{"related", r})
	}
	if err := checkLines("ingest", fields); err != nil {
		return nil, err
	}
	kind, err := checkKind(src.Kind)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	src.Slug = strings.TrimSpace(src.Slug)
	slug := src.Slug
	if slug == "" {
		slug = content.Slug(src.Title)
	}
	if _, err := content.CleanPath(sourcesDir + slug + ".md"); err != nil {
		return nil, fmt.Errorf("ingest: slug: %w", err)
	}
	name := sourcesDir + slug + ".md"
	pg, err := checkText(name, src.Body, s.Config().SourceLimit())
	if err != nil {
		return nil, err
	}
	title := sourceTitle(src.Title, pg)
	aliases := cleanAliases(src.Aliases, title)
	if title == "" && len(aliases) > 0 {
		title, aliases = aliases[0], aliases[1:]
	}
	if title == "" && strings.TrimSpace(src.Update) == "" {
		return nil, fmt.Errorf("ingest %s: %w", name, errNoTitle)
	}
	o := originOf(s, src.File)
	switch {
	case src.Slug != "" || src.Title != "":
	case o != nil && pg.Meta.Title == "":
		slug = content.Slug(content.TitleFromPath(filepath.ToSlash(src.File))) // named after its file
	default:
		slug = content.Slug(title)
	}
	in := &checked{src: src, title: title, aliases: aliases, kind: kind, kindGiven: strings.TrimSpace(src.Kind) != "", slug: slug, slugGiven: src.Slug != "", origin: o, page: pg}
	for _, r := range src.Related {
		p, err := content.CleanPath(strings.TrimSpace(r))
		if err != nil {
			return nil, fmt.Errorf("ingest: %w %q: %w", errRelated, r, err)
		}
		if wiki.IsIndexPage(p) {
			return nil, fmt.Errorf("ingest: %w %s: generated by pt (hub, spoke or log); name a content page", errRelated, p)
		}
		in.related = append(in.related, p)
	}
	return in, nil
}

// stage writes the source, its summary and the fan-out on tx. It runs again
// when the batch must be rebuilt on a newer head.
func (in *checked) stage(ctx context.Context, tx *wiki.Tx) error {
	in.base = tx.Head()
	for _, r := range in.related {
		if link, err := tx.IsSymlink(ctx, r); err != nil || link {
			if err == nil {
				err = wiki.ErrSymlink
			}
			return fmt.Errorf("ingest: %w %s: %w", errRelated, r, err)
		}
		if _, err := tx.ReadPage(ctx, r); err != nil {
			if errors.Is(err, wiki.ErrNotFound) {
				return fmt.Errorf("ingest: %w %s: not found", errRelated, r)
			}
			return fmt.Errorf("ingest: %w %s: %w", errRelated, r, err)
		}
	}
	t, err := in.place(ctx, tx)
	if err != nil {
		return err
	}
	if t.prev != nil {
		if err := in.checkRevision(t); err != nil {
			return err
		}
		if in.title == "" {
			in.title = t.prev.Page.Meta.Title
		}
		if t.sameText(in.page) {
			return in.refresh(ctx, tx, t)
		}
		tx.Revise(t.src, t.prev.Revision)
	}
	topics, err := in.topics(ctx, tx, t)
	if err != nil {
		return err
	}
	sum := summary.Summarize(in.title, in.page.Body, summary.Options{Kind: t.kind(in.kind)})
	line := oneLine(in.src.Summary)
	if line == "" {
		line = sum.Line
	}
	if line == "" {
		line = in.title
	}
	author := content.Author{Kind: in.src.Author.Kind, Name: in.src.Author.Name}
	if author.Kind == "" {
		author.Kind = content.AuthorAgent
	}
	m := sourceMeta{title: in.title, aliases: in.aliases, kind: t.kind(in.kind), topics: topics, summary: line, author: author, approvedBy: in.src.ApprovedBy, appliesTo: in.src.AppliesTo}
	if in.origin != nil && in.origin.inSpace == "" {
		m.origin = in.origin.recorded
	}
	pg := in.page
	if t.prev != nil {
		m.created = t.prev.Page.Meta.Created
		if m.origin == "" {
			m.origin = t.prev.Page.Meta.Provenance.Origin // a revision from stdin or from the page itself
		}
		pg = withLifecycle(pg, t.prev.Page)
	}
	rev, err := putSource(ctx, tx, t.src, pg, m)
	if err != nil {
		return err
	}
	if err := putSummary(ctx, tx, t.sum, t.summaryInput(summaryInput{
		title: in.title, aliases: in.aliases, kind: m.kind, topics: topics, line: line, source: t.src, revision: rev, summary: sum, approvedBy: in.src.ApprovedBy, created: tx.Batch().When,
		appliesTo: appliesOf(in.src.AppliesTo, in.page),
	})); err != nil {
		return err
	}
	for _, r := range in.related {
		if err := fanOut(ctx, tx, r, t.sum, in.title, line); err != nil {
			return err
		}
	}
	return nil
}

// place picks the source and summary paths: the page --update names, else
// the source page that is the file read, else the source whose origin is
// that file, else the slug's, which is revised when a source is there; a
// slug held by something else (a page that is no source, a summary without
// its source, another file's source) gets the first free suffix.
func (in *checked) place(ctx context.Context, tx *wiki.Tx) (*target, error) {
	if in.src.Update != "" {
		return in.updateTarget(ctx, tx, "ingest --update", in.src.Update)
	}
	o := in.origin
	if o != nil && o.inSpace != "" && !in.slugGiven {
		if pa, err := tx.ReadPage(ctx, o.inSpace); err == nil && pa.Page.Meta.Kind == content.KindSource {
			return revising(ctx, tx, pa), nil
		}
	}
	if o != nil && !in.slugGiven {
		if pa := o.findByOrigin(ctx, tx, sourcesDir+in.slug+".md"); pa != nil {
			return revising(ctx, tx, pa), nil
		}
	}
	for n := 1; n < 1000; n++ {
		slug := in.slug
		if n > 1 {
			slug = fmt.Sprintf("%s-%d", in.slug, n)
		}
		t := &target{src: sourcesDir + slug + ".md", sum: summariesDir + slug + ".md"}
		pa, err := tx.ReadPage(ctx, t.src)
		switch {
		case errors.Is(err, wiki.ErrNotFound):
			if !tx.Exists(ctx, t.sum) {
				return t, nil
			}
			continue // a summary without its source: leave it for lint, take another slug
		case err != nil || pa.Page.Meta.Kind != content.KindSource:
			continue // an unreadable page, or no source, at the slug is somebody else's; do not overwrite it
		case o != nil && !in.slugGiven && pa.Page.Meta.Provenance.Origin != "":
			continue // the source of another file
		}
		return revising(ctx, tx, pa), nil
	}
	return nil, fmt.Errorf("ingest %s: no free slug", sourcesDir+in.slug+".md")
}

// topics decides the pages' topics: the caller's, else the source's own
// frontmatter topics, else the best matches in the space's taxonomy, else
// the strongest word of its subject, else the source kind as a topic of
// its own.
func (in *checked) topics(ctx context.Context, tx *wiki.Tx, t *target) ([]string, error) {
	if ts := cleanTopics(in.src.Topics); len(ts) > 0 {
		return ts, nil
	}
	if ts := cleanTopics(in.page.Meta.Topics); len(ts) > 0 {
		return ts, nil
	}
	if t.prev != nil && len(t.prev.Page.Meta.Topics) > 0 {
		return t.prev.Page.Meta.Topics, nil // a revision stays where the space put it
	}
	tax, err := taxonomy.Load(ctx, tx.Space(), tx.Head())
	if err != nil {
		return nil, err
	}
	if ts := tax.Match(in.title, in.page.Body); len(ts) > 0 {
		return ts, nil
	}
	d := &corpusDoc{title: in.title, aliases: in.aliases, body: in.page.Body}
	if subjectTopics([]*corpusDoc{d}); len(d.topics) > 0 {
		return d.topics, nil
	}
	return []string{in.kind}, nil
}

// cleanTopics trims topics and drops empty and repeated ones (by slug).
func cleanTopics(ts []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		t = strings.Join(strings.Fields(t), " ")
		slug := content.TopicSlug(t)
		if !content.IsTopic(t) || seen[slug] {
			continue
		}
		seen[slug] = true
		out = append(out, t)
	}
	return out
}

// sourceTitle is the title a source goes by: the caller's, else its
// frontmatter's, else its first H1, on one line; "" when it has none.
func sourceTitle(given string, pg *content.Page) string {
	return sourceTitleOf(given, pg, func() string { return content.FirstH1(pg.Body) })
}

// sourceTitleOf is sourceTitle with the body's first H1 found by h1, for
// a caller that has analysed the body already.
func sourceTitleOf(given string, pg *content.Page, h1 func() string) string {
	// What the document itself says is made inert: a title is printed and
	// written into spokes and the log.
	for _, t := range []string{given, content.Inert(pg.Meta.Title)} {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			return t
		}
	}
	return strings.Join(strings.Fields(content.Inert(h1())), " ")
}

// cleanAliases puts each alias on one line and drops empty ones and those
// that repeat the title or each other.
func cleanAliases(as []string, title string) []string {
	var out []string
	seen := map[string]bool{strings.ToLower(title): true}
	for _, a := range as {
		a = strings.Join(strings.Fields(a), " ")
		if a == "" || seen[strings.ToLower(a)] {
			continue
		}
		seen[strings.ToLower(a)] = true
		out = append(out, a)
	}
	return out
}
