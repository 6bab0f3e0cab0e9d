package ingest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// curatedDir is where the pages a curation proposal writes go.
const curatedDir = "pages/"

// conceptFix writes a page named for a missing concept that lists the
// pages using it, each with the sentence where it does, in the topic they
// share. It is stale: it defines nothing yet, so it is not served as an
// answer until a person writes the definition and sets it active.
func conceptFix(t lint.CurateTarget) (*curateFix, error) {
	f := t.Finding
	title := upperFirst(f.Target)
	body := fmt.Sprintf("%q is used by %d pages and no page defines it. The proposed page lists where it is used and is stale until a person writes its definition and sets it active.\n\n%s",
		f.Target, t.UsesTotal, f.Message)
	fx := &curateFix{title: "add a page for " + fmt.Sprintf("%q", f.Target), body: body}
	fx.stage = func(ctx context.Context, tx *wiki.Tx) error {
		refs, uses, err := citedUses(ctx, tx, t.Uses)
		if err != nil {
			return err
		}
		p, err := freeSlugPath(ctx, tx, "curate", curatedDir, title)
		if err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\nNo page defines this term yet: %d pages use it. Write its definition here, then set `status: active`.\n\n## Where it is used\n\n",
			content.EscapeInline(title), t.UsesTotal)
		writeUses(&b, p, refs, uses)
		if n := t.UsesTotal - len(uses); n > 0 {
			fmt.Fprintf(&b, "- and %d more\n", n)
		}
		meta := curatedMeta(tx, title, fmt.Sprintf("Awaits a definition: used by %d pages.", t.UsesTotal), refs)
		meta.Status = content.StatusStale
		return putCurated(ctx, tx, p, meta, b.String())
	}
	return fx, nil
}

// lessonPrefixRe is a lesson line's own label ("Lesson learned:").
var lessonPrefixRe = regexp.MustCompile(`(?i)^\s*(?:lessons?(?: learn(?:ed|t))?|takeaways?|learn(?:ed|t)|til)\s*:\s*`)

// lessonFix writes a lesson that retrospectives or filed consults repeat
// as a page of its own, citing each place it was stated, as file-back
// would: UNCLASSIFIED only, provenance pinned to what it rests on.
func lessonFix(s *wiki.Space, f lint.Finding) (*curateFix, error) {
	if len(f.Evidence) == 0 {
		return nil, fmt.Errorf("an unpromoted lesson cites where it was stated")
	}
	text := oneLine(lessonPrefixRe.ReplaceAllString(f.Evidence[0].Text, ""))
	title := clipWords(strings.TrimRight(text, ".!"), 120)
	if c := s.Config().SpaceClassification(); !unclassified(c) {
		return nil, fmt.Errorf("the space is %s; a lesson page enters only an UNCLASSIFIED space", c)
	}
	body := fmt.Sprintf("The lesson is stated %d times and no page holds it: a page of its own, citing where it was learned.\n\n%s", len(f.Evidence), f.Message)
	fx := &curateFix{title: "add the lesson " + fmt.Sprintf("%q", clipWords(title, 60)), body: body}
	fx.stage = func(ctx context.Context, tx *wiki.Tx) error {
		refs, uses, err := citedUses(ctx, tx, f.Evidence)
		if err != nil {
			return err
		}
		for _, r := range refs {
			if c := r.page.Page.Meta.Classification; !unclassified(c) {
				return fmt.Errorf("%s is %s; a lesson page cites UNCLASSIFIED pages only", r.path, c)
			}
		}
		p, err := freeSlugPath(ctx, tx, "curate", curatedDir, title)
		if err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n%s\n\n%s\n\n", content.EscapeInline(title), text, sourcesHeading)
		writeUses(&b, p, refs, uses)
		meta := curatedMeta(tx, title, clipWords(text, summary.LineMax), refs)
		meta.Status, meta.Durability = content.StatusActive, "durable"
		return putCurated(ctx, tx, p, meta, b.String())
	}
	return fx, nil
}

// citedUses reads the pages of uses at the transaction's head; a page
// gone since is left out, and none left is an error.
func citedUses(ctx context.Context, tx *wiki.Tx, uses []lint.Evidence) ([]citedPage, []lint.Evidence, error) {
	var refs []citedPage
	var kept []lint.Evidence
	for _, u := range uses {
		pa, err := tx.ReadPage(ctx, u.Path)
		if err != nil {
			continue
		}
		if !unclassified(pa.Page.Meta.Classification) {
			continue // never quoted into a page readers of any clearance see
		}
		refs = append(refs, citedPage{path: u.Path, page: pa})
		kept = append(kept, u)
	}
	if len(refs) == 0 {
		return nil, nil, errCitationsGone
	}
	return refs, kept, nil
}

// writeUses lists each page with the sentence it says it in.
func writeUses(b *strings.Builder, from string, refs []citedPage, uses []lint.Evidence) {
	for i, r := range refs {
		fmt.Fprintf(b, "- [%s](%s), line %d: %q\n", content.EscapeInline(pageTitle(r.page)),
			linkTarget(content.RelLink(from, r.path)), uses[i].Line, oneLine(uses[i].Text))
	}
}

// curatedMeta is the frontmatter of a page pt composed from other pages:
// an agent's text, pinned to the revisions it cites, in their topic.
func curatedMeta(tx *wiki.Tx, title, summaryLine string, refs []citedPage) content.Meta {
	b := tx.Batch()
	pinned := make([]content.Ref, len(refs))
	for i, r := range refs {
		pinned[i] = content.Ref{Path: r.path, Revision: r.page.Revision}
	}
	return content.Meta{
		Title:          title,
		Kind:           content.KindPage,
		Topics:         topicsOf(refs, 1),
		Summary:        summaryLine,
		Author:         content.Author{Kind: content.AuthorAgent, Name: "pt"},
		Classification: content.Unclassified,
		Provenance:     content.Provenance{Batch: b.ID, Citations: pinned},
		Created:        b.When,
		Updated:        b.When,
	}
}

// putCurated writes the page, refusing a secret the way every write does.
func putCurated(ctx context.Context, tx *wiki.Tx, p string, meta content.Meta, body string) error {
	data, err := content.NewPage(meta, []byte(body)).Bytes()
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if err := checkSecretsAs("curate", p, data); err != nil {
		return err
	}
	_, err = tx.PutFile(ctx, p, data, wiki.RolePage)
	return err
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// clipWords cuts s to at most max bytes at a word boundary.
func clipWords(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], ' ')
	if cut <= 0 {
		cut = max
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}
