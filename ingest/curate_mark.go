package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// staleFix marks the page of a stale claim stale, as lint marks a page
// whose source drifted: the frontmatter's status only, the body byte for
// byte. The page is not served as an answer until a person brings the
// claim up to date and sets it active again.
func staleFix(f lint.Finding) *curateFix {
	body := fmt.Sprintf("%s line %d: %s\n\n%s is marked stale: it is not served as an answer until the claim is brought up to date and its status set back to active.",
		f.Path, f.Line, f.Message, f.Path)
	return &curateFix{title: "mark " + f.Path + " stale", body: body, stage: func(ctx context.Context, tx *wiki.Tx) error {
		pa, err := tx.ReadPage(ctx, f.Path)
		if err != nil {
			return err
		}
		pg := *pa.Page
		pg.Meta.Status = content.StatusStale
		_, err = tx.Put(ctx, f.Path, &pg, wiki.RolePage)
		return err
	}}
}

// contradictionFix marks both pages of a contradiction for review: each
// gets, at the end of its body, a note (an HTML comment, which hosts do
// not show and the curation rules do not read as a claim) citing its own
// value and the other page's value and line. The finding stays open, and
// with it both pages' needs_review, until a person corrects one of them.
func contradictionFix(f lint.Finding) (*curateFix, error) {
	if len(f.Evidence) != 2 {
		return nil, errors.New("a contradiction cites two places")
	}
	a, b := f.Evidence[0], f.Evidence[1]
	body := fmt.Sprintf("%s line %d says %s; %s line %d says %s.\nBoth pages get a review note citing the other; the finding stays open until one of them is corrected.\n\n%s",
		a.Path, a.Line, a.Value, b.Path, b.Line, b.Value, f.Message)
	fx := &curateFix{title: "mark " + a.Path + " and " + b.Path + " for review", body: body}
	fx.stage = func(ctx context.Context, tx *wiki.Tx) error {
		for _, e := range [][2]lint.Evidence{{a, b}, {b, a}} {
			if err := putReviewNote(ctx, tx, f.ID, e[0], e[1]); err != nil {
				return err
			}
		}
		return nil
	}
	return fx, nil
}

// putReviewNote appends to the page of here the note citing there.
func putReviewNote(ctx context.Context, tx *wiki.Tx, id string, here, there lint.Evidence) error {
	pa, err := tx.ReadPage(ctx, here.Path)
	if err != nil {
		return err
	}
	note := fmt.Sprintf("<!-- needs review (pt curate, contradiction %s): line %d here says %s; %s line %d says %s (%q). Keep the right value, correct the other page, and delete this note. -->\n",
		id, here.Line, commentSafe(here.Value), there.Path, there.Line, commentSafe(there.Value), commentSafe(there.Text))
	pg := *pa.Page
	pg.Body = append(append([]byte(strings.TrimRight(string(pg.Body), "\n")), "\n\n"...), note...)
	_, err = tx.Put(ctx, here.Path, &pg, wiki.RolePage)
	return err
}

// commentSafe keeps a quoted text from ending the HTML comment early.
func commentSafe(s string) string {
	return strings.ReplaceAll(oneLine(s), "--", "- -")
}
