package retrieve

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// ErrEmptyQuestion is returned for a question with no text at all. A
// question with text but no searchable words (only punctuation or stop
// words) is answered as insufficient instead, since it is not malformed.
var ErrEmptyQuestion = errors.New("empty question: ask something")

// ErrBudgetTooSmall is returned for a positive budget below MinBudget: no
// excerpt fits in it.
var ErrBudgetTooSmall = fmt.Errorf("budget too small: an excerpt needs at least %d tokens", MinBudget)

// inactive are the statuses the index never returns; expiry by date is
// checked on the page itself (content.Meta.Active). A superseded page is
// searched so that a question matching it finds its successor (pick).
var inactive = []string{content.StatusStale, content.StatusRetracted, content.StatusExpired, content.StatusObsolete, content.StatusArchived}

// Query answers a question from the space at its head: navigation through
// the hub's topics and their spokes, fused with full-text search over every
// section and every page, packed into at most req.Budget tokens. When the
// space does not hold the answer, Sufficient is false and Results is empty.
//
// With req.Paths, the pages that apply to those files come first (see
// withPaths), and the question may be empty.
func (e *Engine) Query(ctx context.Context, req Request) (*Result, error) {
	if err := cleanPaths(&req); err != nil {
		return nil, err
	}
	if len(req.Paths) > 0 {
		return e.withPaths(ctx, req)
	}
	return e.ask(ctx, req)
}

// ask answers req's question.
func (e *Engine) ask(ctx context.Context, req Request) (*Result, error) {
	if strings.TrimSpace(strings.Map(dropControl, req.Question)) == "" {
		return nil, ErrEmptyQuestion
	}
	if req.Budget > 0 && req.Budget < MinBudget {
		return nil, ErrBudgetTooSmall
	}
	req = withDefaults(req)
	if req.Now.IsZero() {
		req.Now = e.space.Now()
	}
	res := &Result{Question: req.Question, MissingTerms: []string{}, Results: []Hit{}, Nearest: []Near{}, Trace: Trace{Topics: []string{}, Index: "none"}}
	for _, a := range req.Also {
		if a = strings.TrimSpace(strings.Map(dropControl, a)); a != "" {
			res.Trace.Also = append(res.Trace.Also, a)
		}
	}
	req.Also = res.Trace.Also
	head, err := e.space.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	res.Trace.Commit = string(head)
	terms := index.Terms(req.Question)
	switch {
	case head == "":
		res.Trace.Reason = "the space has no commits"
		return res, nil
	case len(terms) == 0:
		res.Trace.Reason = "the question has no searchable words"
		return res, nil
	}
	h, err := e.acquire(ctx, head)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	out, err := e.answer(ctx, h, head, req, terms, *res)
	h.release()
	if errors.Is(err, index.ErrCorrupt) {
		// The index's files are damaged, found only now that they are
		// read. It is a cache: the Engine's own index is rebuilt and
		// the question asked again. Another process's (a snapshot) is
		// never deleted here, nor one the rebuild cannot take: the
		// question is then answered from memory.
		if h.kind == "memory" {
			e.dropMemory()
		}
		if h.kind == "disk" && e.resetAt(ctx, head) == nil {
			h, err = e.acquireOpen()
		} else {
			h, err = e.fromMemory(ctx, head)
		}
		if err != nil {
			return nil, fmt.Errorf("query: %w", err)
		}
		out, err = e.answer(ctx, h, head, req, terms, *res)
		h.release()
	}
	return out, err
}

// answer answers req from the index h, filling in a copy of res.
func (e *Engine) answer(ctx context.Context, h *handle, head wiki.Rev, req Request, terms []string, base Result) (*Result, error) {
	res := &base
	res.Trace.Index = h.kind

	ev := evidence{Question: req.Question}
	if e.gate != nil {
		ev.channels = map[string][]string{}
	}
	search := searchText(req)
	groups, err := e.rank(ctx, h.ix, head, search, &res.Trace, &ev)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	review, err := e.cache.openPaths(ctx, e.space, head)
	if err != nil {
		review = nil // findings that cannot be read only lose needs_review marks
	}
	picked, err := e.pick(ctx, h.ix, head, groups, req, review)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	stats, err := h.ix.Stats(ctx, terms)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	gateTerms := terms
	if e.ranking.BaseForms {
		if gateTerms, stats, err = baseForms(ctx, h.ix, req.Question, terms, stats); err != nil {
			return nil, fmt.Errorf("query: %w", err)
		}
	}
	ok, cov, reason := e.sufficient(gateTerms, stats, picked, &ev)
	res.Trace.Coverage = round3(cov)
	// The excerpts are packed either way: the graded signal of a refused
	// answer says what the excerpts it holds back would have covered.
	hits, tokens := pack(picked, index.Terms(search), req)
	res.Coverage, res.MissingTerms = signal(req.Question, gateTerms, stats, hits, ev.acronyms, e.excerptTerms)
	if !ok {
		res.Trace.Reason = reason
		res.Nearest = nearest(ctx, e.space, head, picked)
		return res, nil
	}
	res.Sufficient = true
	res.Results, res.Tokens = hits, tokens
	res.Trace.Superseded = redirects(picked, res.Results)
	return res, nil
}

// searchText is what the channels search: the question and the caller's
// alternative phrasings beside it.
func searchText(req Request) string {
	if len(req.Also) == 0 {
		return req.Question
	}
	return req.Question + "\n" + strings.Join(req.Also, "\n")
}

func withDefaults(req Request) Request {
	if req.K <= 0 {
		req.K = DefaultK
	}
	req.K = min(req.K, MaxK)
	if req.Budget <= 0 {
		req.Budget = DefaultBudget
	}
	return req
}

func dropControl(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return ' '
	}
	return r
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
