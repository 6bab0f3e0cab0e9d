package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/ingest/internal/durability"
	"github.com/ptwiki/pt/ingest/internal/model"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// Consult is one question put to the space, with the answer the caller
// composed from it (or none, and pt composes one) and the pages the answer
// used. FileBack decides whether it becomes a synthesis page.
type Consult struct {
	Question string
	// Answer is the caller's answer. Empty means pt composes one: from the
	// Model when there is one and it answers sanely,
	// else extractively from the top retrieved excerpts.
	Answer string
	// Citations are the page paths (space-relative) the answer used. When
	// pt composes the answer, the pages it drew on are cited too.
	Citations []string
	// Durability is the caller's verdict: "" (let pt decide), durable,
	// time_bound or ephemeral. It can make an answer shorter-lived than the
	// rules say, never longer-lived.
	Durability string
	// AskedBy names who asked (a person or an agent session), for the
	// synthesis page's provenance.
	AskedBy string
	// Author is who files the answer: kind agent for MCP, human for the CLI.
	// Zero means the agent "pt".
	Author wiki.Author
	// When is the consult's time (the batch time, the start of a
	// time_bound page's TTL); zero means now.
	When time.Time
	// Model answers when Answer is empty; nil means none (the answer is
	// composed extractively).
	Model *Model
	// Retriever answers the question for the gates; nil means an Engine
	// opened on the space for this consult alone.
	Retriever Retriever
	// Propose files a passing answer as a proposal for a person to review
	// (wiki.Batch.Propose) instead of on the branch.
	Propose bool
}

// Verdict values.
const (
	VerdictFiled    = "filed"
	VerdictProposed = "proposed" // passed the gates; waits on a proposal branch for a person
	VerdictSkipped  = "skipped"
)

// Gates, in the order they run (DESIGN.md §7). A skipped verdict names the
// gate that stopped it.
const (
	GateCompounding    = "compounding"    // kb.yaml says compounding: false
	GateClassification = "classification" // the space or a cited page is not UNCLASSIFIED
	GateDurability     = "durability"     // the answer is ephemeral
	GateCitations      = "citations"      // no citation resolves to a page
	GateEcho           = "echo"           // the answer restates an existing page
	GateNearDuplicate  = "near_duplicate" // a recent synthesis already says it (or, for a retro, the cycle is closed)
)

// Where a verdict's answer came from.
const (
	AnswerByCaller     = "caller"
	AnswerByModel      = "model"
	AnswerByExtraction = "extractive"
)

// Verdict is what became of a consult: the --json output of pt consult and
// the structured output of the MCP tool file_back_consult. Gate is empty
// when the answer was filed.
type Verdict struct {
	Verdict    string        `json:"verdict"` // filed | proposed | skipped
	Gate       string        `json:"gate"`
	Reason     string        `json:"reason"`
	Page       string        `json:"page,omitempty"`
	Batch      string        `json:"batch,omitempty"`
	Commit     string        `json:"commit,omitempty"`
	Proposal   string        `json:"proposal,omitempty"` // the branch of a proposed answer; pt approve <batch> lands it
	Answer     string        `json:"answer"`
	Citations  []content.Ref `json:"citations"`
	Durability string        `json:"durability"`
	// Expires is the filed page's expiry date (time_bound answers only).
	Expires string `json:"expires,omitempty"`
	// AnswerBy says who composed the answer: caller, model or extractive.
	AnswerBy string `json:"answer_by,omitempty"`
	// ModelError says why a configured model was not used (down, slow,
	// garbage); the extractive answer stood in.
	ModelError string `json:"model_error,omitempty"`
}

// Limits on what a consult may carry. A synthesis page is a paragraph or a
// few, not a document: an answer beyond MaxAnswerBytes is a paste, and is
// refused rather than filed.
const (
	maxQuestionBytes = 1 << 10
	MaxAnswerBytes   = model.MaxAnswerBytes
)

// errBadConsult is wrapped by every refusal of a consult's input.
var errBadConsult = errors.New("bad consult")

// synthesisDir is where filed answers live (DESIGN.md §2).
const synthesisDir = "synthesis/"

// FileBack answers a consult and runs the file-back gates on it; when every
// gate passes, it writes the answer as a synthesis page in one file-back
// batch (with the spokes, the hub and the log entry), which pt revert undoes.
// A gate that stops the answer is a skipped verdict, not an error: errors
// are for bad input (an empty question, an oversized answer, an unknown
// durability, a secret, an absurd clock) and for I/O, and leave the
// repository exactly as it was.
func FileBack(ctx context.Context, s *wiki.Space, c Consult) (*Verdict, error) {
	in, err := checkConsult(c, s.Now)
	if err != nil {
		return nil, err
	}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("consult: %w", err)
	}
	r := c.Retriever
	if r == nil {
		e := retrieve.Open(s, retrieve.Options{})
		defer e.Close()
		r = e
	}
	g := &gates{space: s, retriever: r, cfg: s.Config(), head: head, now: in.when, question: in.question}
	v := &Verdict{Citations: []content.Ref{}}
	if err := g.answer(ctx, in, v); err != nil {
		return nil, err
	}
	if strings.TrimSpace(v.Answer) == "" {
		// Nothing retrieved, so nothing to compose: the answer would cite
		// nothing, which is the citation gate's refusal.
		v.Verdict, v.Gate = VerdictSkipped, GateCitations
		v.Reason = "the space holds nothing sufficient on this question, so there is no answer to file"
		recordConsult(s, head, in, v)
		return v, nil
	}
	if err := checkConsultSecrets(in, v); err != nil {
		return nil, err
	}
	if err := g.run(ctx, in, v); err != nil {
		return nil, err
	}
	if v.Gate != "" {
		v.Verdict = VerdictSkipped
		recordConsult(s, head, in, v)
		return v, nil
	}
	if err := fileSynthesis(ctx, s, in, g, v); err != nil {
		return nil, err
	}
	recordConsult(s, head, in, v)
	return v, nil
}

// checkConsultSecrets is the secret gate over the question and the answer,
// before any gate reads them. It names which of the two holds the secret
// and, for the answer, the line as the caller wrote it (the answer before
// its surrounding blank lines were trimmed), so the caller can find it.
func checkConsultSecrets(in *consultInput, v *Verdict) error {
	if f := secret.Scan([]byte(in.question)); len(f) > 0 {
		return &SecretError{Op: "consult", Field: "question", Kind: f[0].Kind}
	}
	answer := v.Answer
	if v.AnswerBy == AnswerByCaller {
		answer = in.Consult.Answer
	}
	if f := secret.Scan([]byte(answer)); len(f) > 0 {
		return &SecretError{Op: "consult", Field: "answer", Kind: f[0].Kind, Line: f[0].Line}
	}
	return nil
}

// consultInput is a consult whose input passed every check.
type consultInput struct {
	Consult
	question   string
	answer     string
	durability durability.Kind
	when       time.Time // the decision's time: expiry and the gates' recency
	batchWhen  time.Time // the batch's time: zero (the space's clock) under --now
	composer   string    // the model that composed the answer, when one did
}

// checkConsult refuses bad input before anything is read or written.
func checkConsult(c Consult, clock wiki.Clock) (*consultInput, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("consult: %w: %s", errBadConsult, fmt.Sprintf(format, args...))
	}
	q := strings.Join(strings.Fields(c.Question), " ")
	switch {
	case q == "":
		return nil, bad("empty question")
	case !utf8.ValidString(c.Question) || strings.ContainsRune(c.Question, 0):
		return nil, bad("question is not UTF-8 text")
	case len(q) > maxQuestionBytes:
		return nil, bad("question of %d bytes, limit %d", len(q), maxQuestionBytes)
	case len(c.Answer) > MaxAnswerBytes:
		return nil, bad("answer of %d bytes, limit %d: file a summary, or ingest the text as a source", len(c.Answer), MaxAnswerBytes)
	case !utf8.ValidString(c.Answer) || strings.ContainsRune(c.Answer, 0):
		return nil, bad("answer is not UTF-8 text")
	case c.Answer != "" && strings.TrimSpace(c.Answer) == "":
		return nil, bad("empty answer (leave it unset to let pt compose one)")
	}
	if err := CheckLine("consult", "asked_by", c.AskedBy); err != nil {
		return nil, err
	}
	d, err := durability.Parse(c.Durability)
	if err != nil {
		return nil, fmt.Errorf("consult: %w: %w", errBadConsult, err)
	}
	when, batchWhen := c.When, time.Time{}
	if when.IsZero() {
		when = clock()
		batchWhen = when.UTC().Truncate(time.Second)
	}
	if err := CheckClock(when); err != nil {
		return nil, fmt.Errorf("consult: %w", err)
	}
	when = when.UTC().Truncate(time.Second)
	answer := strings.TrimSpace(strings.ReplaceAll(c.Answer, "\r\n", "\n"))
	return &consultInput{Consult: c, question: q, answer: answer, durability: d, when: when, batchWhen: batchWhen}, nil
}

// errClock is wrapped when a clock (--now, a consult's When) is outside the
// years pt accepts.
var errClock = errors.New("clock out of range")

// The range of clocks pt accepts. A time outside it is a mistyped --now or
// a broken system clock, and would write expiry dates and commit times that
// git hosts and people misread (1900, 3000); it is refused rather than
// written.
var (
	minClock = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxClock = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// CheckClock refuses a time outside [minClock, maxClock).
func CheckClock(t time.Time) error {
	if t.Before(minClock) || !t.Before(maxClock) {
		return fmt.Errorf("%w: %s is not between %s and %s", errClock, t.UTC().Format(time.RFC3339),
			minClock.Format(time.DateOnly), maxClock.Format(time.DateOnly))
	}
	return nil
}

// answer fills v.Answer, v.AnswerBy and the citations' candidates: the
// caller's answer, else a model's, else an extractive one.
func (g *gates) answer(ctx context.Context, in *consultInput, v *Verdict) error {
	res, err := g.retrieved(ctx)
	if err != nil {
		return err
	}
	if in.answer != "" {
		v.Answer, v.AnswerBy = in.answer, AnswerByCaller
		g.cited = append(g.cited, in.Citations...)
		return nil
	}
	g.cited = append(g.cited, in.Citations...)
	hits := answerHits(res)
	if len(hits) == 0 {
		return nil
	}
	m := in.Model
	if m != nil {
		ma, err := m.Compose(ctx, in.question, hits)
		if err == nil {
			v.Answer, v.AnswerBy = ma.Answer, AnswerByModel
			in.composer = m.Name
			if in.composer == "" {
				in.composer = "model"
			}
			if d, err := durability.Parse(ma.Durability); err == nil {
				g.modelDurability = d
			}
			for _, h := range ma.Cited {
				g.cited = append(g.cited, h.Path)
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		v.ModelError = err.Error()
	}
	v.Answer, v.AnswerBy = extractiveAnswer(hits), AnswerByExtraction
	for _, h := range hits {
		g.cited = append(g.cited, h.Path)
	}
	return nil
}

// extractiveHits bounds the excerpts an extractive answer quotes: three
// pages are enough to answer most questions and few enough to read.
const extractiveHits = 3

// answerHits picks the excerpts an answer is composed from: the best hit of
// each of the top pages, navigation pages left out.
func answerHits(res *retrieve.Result) []retrieve.Hit {
	if res == nil || !res.Sufficient {
		return nil
	}
	var out []retrieve.Hit
	seen := map[string]bool{}
	for _, h := range res.Results {
		if seen[h.Path] || wiki.IsIndexPage(h.Path) || strings.TrimSpace(h.Excerpt) == "" {
			continue
		}
		seen[h.Path] = true
		out = append(out, h)
		if len(out) == extractiveHits {
			break
		}
	}
	return out
}

// extractiveAnswer quotes the excerpts, each attributed to its page, so the
// answer never says more than the space does.
func extractiveAnswer(hits []retrieve.Hit) string {
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteString("\n\n")
		}
		title := strings.TrimSpace(h.Title)
		if title == "" {
			title = content.TitleFromPath(h.Path)
		}
		b.WriteString(demoteHeadings(strings.TrimSpace(h.Excerpt)))
		fmt.Fprintf(&b, "\n\n(From %q, %s.)", oneLine(title), h.Path)
	}
	return b.String()
}

// demoteHeadings turns the headings of a quoted excerpt into bold lines, so
// that a synthesis page stays one section under its question: quoted "##"
// lines would otherwise split it, and retrieval would return a heading
// without its answer.
func demoteHeadings(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 || !strings.HasPrefix(t, "#") {
			continue
		}
		h := strings.TrimLeft(t, "#")
		if len(t)-len(h) > 6 || (h != "" && h[0] != ' ' && h[0] != '\t') {
			continue
		}
		if h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#")); h != "" {
			lines[i] = "**" + h + "**"
		}
	}
	return strings.Join(lines, "\n")
}

// quotedRe matches what a reason quotes of the question or the answer.
var quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"[^"]*"`) })

// unquote drops from a gate's reason the words it quotes, so that the
// consult log keeps why a consult was skipped and nothing of what was asked.
func unquote(reason string) string { return quotedRe().ReplaceAllString(reason, `"…"`) }

// recordConsult appends v to the consult log. The log is a convenience for
// retrospectives and reviews: failing to write it never fails the consult.
func recordConsult(s *wiki.Space, head wiki.Rev, in *consultInput, v *Verdict) {
	line, err := json.Marshal(ConsultRecord{Time: in.when, Head: string(head), Verdict: v.Verdict, Gate: v.Gate, Reason: unquote(v.Reason),
		Page: v.Page, Batch: v.Batch, AskedBy: in.AskedBy, By: in.Author.Name, ByKind: in.Author.Kind})
	if err != nil {
		return
	}
	p := consultLog(s)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	// One short line in one write: appends from several processes do not
	// interleave.
	_, _ = f.Write(append(line, '\n'))
	_ = f.Close()
}
