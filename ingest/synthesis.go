package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/durability"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/wiki"
)

// sourcesHeading opens the list of cited pages at the end of a synthesis.
const sourcesHeading = "## Sources"

// synthesisTopics bounds a synthesis page's topics: it is listed in the
// spokes of the subjects it answers about, not in every spoke its sources
// touch.
const synthesisTopics = 3

// fallbackTopic is the topic of a synthesis whose cited pages have none, so
// that it is still listed in a spoke (and not an orphan).
const fallbackTopic = "synthesis"

// errCitationsGone is returned when every cited page vanished between the
// gates and the write (a concurrent batch deleted them).
var errCitationsGone = errors.New("the cited pages were removed while the answer was being filed")

// fileSynthesis writes the answer as synthesis/<slug-of-question>.md in one
// file-back batch, and completes v with the page, the batch and the commit.
func fileSynthesis(ctx context.Context, s *wiki.Space, in *consultInput, g *gates, v *Verdict) error {
	author := in.Author
	if author.Name == "" {
		author.Name = "pt"
	}
	if author.Kind == "" {
		author.Kind = content.AuthorAgent
	}
	b := wiki.Batch{Kind: wiki.KindFileBack, Title: in.question, Author: author, When: in.batchWhen, Propose: in.Propose}
	writer := pageAuthor(author, v.AnswerBy, in.composer)
	var page string
	var pinned []content.Ref
	res, err := s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		var err error
		page, pinned, err = stageSynthesis(ctx, tx, in, g, v, writer)
		return err
	})
	if err != nil {
		return err
	}
	v.Verdict, v.Page, v.Batch, v.Commit, v.Proposal = VerdictFiled, page, res.Batch, res.Commit, res.Proposal
	if res.Proposal != "" {
		v.Verdict = VerdictProposed
	}
	v.Citations = pinned
	return nil
}

// askedBy is who asked: the caller's name for it, else who ran the consult.
func askedBy(in *consultInput) string {
	if a := oneLine(in.AskedBy); a != "" {
		return a
	}
	return oneLine(in.Author.Name)
}

// pageAuthor is the author of the synthesis page: whoever composed the
// answer. An answer pt extracted or a model wrote is an agent's text even
// when a person ran the consult (they are recorded as who asked); only a
// caller's own answer is the caller's.
func pageAuthor(runner wiki.Author, answerBy, model string) content.Author {
	switch answerBy {
	case AnswerByExtraction:
		return content.Author{Kind: content.AuthorAgent, Name: "pt"}
	case AnswerByModel:
		return content.Author{Kind: content.AuthorAgent, Name: model}
	}
	return content.Author{Kind: runner.Kind, Name: runner.Name}
}

// stageSynthesis builds the synthesis page on tx. It runs again when the
// batch is rebuilt on a newer head, so it reads everything through tx.
func stageSynthesis(ctx context.Context, tx *wiki.Tx, in *consultInput, g *gates, v *Verdict, author content.Author) (string, []content.Ref, error) {
	b := tx.Batch()
	var refs []citedPage
	var pinned []content.Ref
	for _, r := range g.refs {
		pa, err := tx.ReadPage(ctx, r.path)
		if err != nil {
			continue // removed by a concurrent batch: no longer cited
		}
		refs = append(refs, citedPage{path: r.path, page: pa})
		pinned = append(pinned, content.Ref{Path: r.path, Revision: pa.Revision})
	}
	if len(refs) == 0 {
		return "", nil, fmt.Errorf("consult: %w", errCitationsGone)
	}
	p, err := freeSlugPath(ctx, tx, "consult", synthesisDir, in.question)
	if err != nil {
		return "", nil, err
	}
	topics := topicsOf(refs, synthesisTopics)
	if len(topics) == 0 {
		topics = []string{fallbackTopic}
	}
	meta := content.Meta{
		Title:          in.question,
		Kind:           content.KindSynthesis,
		Topics:         topics,
		Summary:        answerLine(in.question, v.Answer),
		Author:         author,
		Status:         content.StatusActive,
		Classification: content.Unclassified,
		Durability:     v.Durability,
		Provenance: content.Provenance{
			Batch:     b.ID,
			Citations: pinned,
			Question:  in.question,
			AskedBy:   askedBy(in),
		},
		Created: b.When,
		Updated: b.When,
	}
	if durability.Kind(v.Durability) == durability.TimeBound {
		meta.Expires = expiry(in, v, tx.Space().Config().TTLOrDefault()).Format(time.DateOnly)
		v.Expires = meta.Expires
	}
	pg := content.NewPage(meta, []byte(synthesisBody(p, in.question, v.Answer, refs)))
	data, err := pg.Bytes()
	if err != nil {
		return "", nil, fmt.Errorf("consult %s: %w", p, err)
	}
	// The page as written is checked too: titles of cited pages and the
	// question reach it besides the answer.
	if err := checkSecretsAs("consult", p, data); err != nil {
		return "", nil, err
	}
	if _, err := tx.PutFile(ctx, p, data, wiki.RoleSynthesis); err != nil {
		return "", nil, err
	}
	return p, pinned, nil
}

// freeSlugPath is <dir><slug of text>.md, or the first free
// <dir><slug>-N.md when an earlier page holds it. what names the command
// in errors ("consult", "curate").
func freeSlugPath(ctx context.Context, tx *wiki.Tx, what, dir, text string) (string, error) {
	slug := content.Slug(text)
	for n := 1; n < 1000; n++ {
		p := dir + slug + ".md"
		if n > 1 {
			p = fmt.Sprintf("%s%s-%d.md", dir, slug, n)
		}
		if _, err := content.CleanPath(p); err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if !tx.Exists(ctx, p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s %s%s.md: no free name", what, dir, slug)
}

// synthesisBody is the question as a heading, the answer, and the cited
// pages as relative links (they resolve on any git host).
func synthesisBody(p, question, answer string, refs []citedPage) string {
	var b strings.Builder
	b.WriteString("# " + question + "\n\n")
	b.WriteString(strings.TrimSpace(answer) + "\n\n")
	b.WriteString(sourcesHeading + "\n\n")
	for _, r := range refs {
		title := oneLine(r.page.Page.Meta.Title)
		if title == "" {
			title = content.TitleFromPath(r.path)
		}
		fmt.Fprintf(&b, "- [%s](%s)\n", content.EscapeInline(title), linkTarget(content.RelLink(p, r.path)))
	}
	return b.String()
}

// answerLine is the synthesis page's one-line summary: the answer's own
// summary line, else its first line, cut to fit a spoke.
func answerLine(question, answer string) string {
	if l := summary.Summarize(question, []byte(answer), summary.Options{}).Line; l != "" {
		return l
	}
	for _, l := range strings.Split(answer, "\n") {
		if l = oneLine(strings.TrimLeft(l, "#>-* ")); l != "" {
			if r := []rune(l); len(r) > summary.LineMax {
				l = string(r[:summary.LineMax-1]) + "…"
			}
			return l
		}
	}
	return ""
}

// linkTarget escapes what would end a Markdown link destination early.
func linkTarget(p string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(p)
}

// expiry is when a time-bound answer expires: the sooner of the date the
// question or the answer says it holds until and now plus the space's TTL.
func expiry(in *consultInput, v *Verdict, ttl time.Duration) time.Time {
	exp := in.when.Add(ttl)
	if t, ok := durability.Expiry(in.question, v.Answer, in.when); ok && t.Before(exp) {
		exp = t
	}
	return exp
}
