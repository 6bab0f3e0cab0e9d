package retrieve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
)

// Question is one line of an evaluation file (JSONL): a question and the
// pages that answer it. An empty Gold means the space does not hold the
// answer, and the honest reply is insufficient.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Gold     []string `json:"gold"`
	Kind     string   `json:"kind,omitempty"` // lookup, paraphrase, multi-hop, negative, ...
}

// ReadQuestions parses a JSONL file of questions; blank lines are skipped and
// a bad line is an error naming its number.
func ReadQuestions(r io.Reader) ([]Question, error) {
	return content.ReadJSONL(r, "questions", func(q Question) error {
		if strings.TrimSpace(q.Question) == "" {
			return errors.New("no question")
		}
		return nil
	})
}

// EvalOptions configures Eval. Zero values: K DefaultK, Budget DefaultBudget,
// Now the current time.
type EvalOptions struct {
	K      int
	Budget int
	Now    time.Time
}

// Figures are one system's scores over a question set. Rates are over the
// questions they apply to: hit@k and MRR over answerable questions,
// Insufficient over unanswerable ones, MultiHop over multi-hop ones (all gold
// pages within the top 8).
type Figures struct {
	System          string  `json:"system"`
	Answerable      int     `json:"answerable"`
	Unanswerable    int     `json:"unanswerable"`
	MultiHopN       int     `json:"multi_hop_questions"`
	HitAt1          float64 `json:"hit_at_1"`
	HitAt5          float64 `json:"hit_at_5"`
	MRR             float64 `json:"mrr"`
	MultiHop        float64 `json:"multi_hop_top8"`
	Insufficient    float64 `json:"unanswerable_insufficient"` // share of unanswerable questions answered insufficient; -1 when the system has no such signal
	FalseNegatives  float64 `json:"answerable_insufficient"`   // share of answerable questions wrongly answered insufficient
	MedianTokens    int     `json:"median_context_tokens"`     // over questions answered with a context
	P90Tokens       int     `json:"p90_context_tokens"`
	MedianLatencyMS float64 `json:"median_latency_ms"`
}

// QuestionResult is how the main system did on one question.
type QuestionResult struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind,omitempty"`
	Gold       []string `json:"gold"`
	Rank       int      `json:"rank"` // 1-based rank of the first gold page, 0 when absent
	Sufficient bool     `json:"sufficient"`
	Coverage   float64  `json:"coverage"`
	Tokens     int      `json:"tokens"`
	Top        []string `json:"top"`       // result paths, best first
	BM25Rank   int      `json:"bm25_rank"` // the same for the plain BM25 baseline
}

// EvalReport is the output of `pt eval --json`.
type EvalReport struct {
	Questions int              `json:"questions"`
	Systems   []Figures        `json:"systems"` // pt first, then the baselines
	Results   []QuestionResult `json:"results"`
}

// goldRank returns the 1-based rank of the first result that is a gold page
// (gold X.md is hit by X.md, sources/X.md or summaries/X.md), 0 if none, and
// whether every gold page is within the first n results.
func goldRank(paths, gold []string, n int) (int, bool) {
	rank := 0
	found := map[string]bool{}
	for i, p := range paths {
		for _, g := range gold {
			if p == g || p == "sources/"+g || p == "summaries/"+g {
				if rank == 0 {
					rank = i + 1
				}
				if i < n {
					found[g] = true
				}
			}
		}
	}
	return rank, len(gold) > 0 && len(found) == len(gold)
}

// system is one retriever under evaluation: it returns result paths best
// first, the context tokens it would hand a model, and whether it claims to
// have an answer.
type system struct {
	name   string
	honest bool // has a sufficiency signal
	run    func(ctx context.Context, q Question) (paths []string, tokens int, sufficient bool, cov float64, err error)
}

// Eval runs every question through Query and through two baselines on the
// same space: plain BM25 over whole pages as their files hold them (an index
// of its own: no hub, spokes, sections or fusion, nor the folder words and
// summaries pt adds) and a naive count of the question's words in each page.
// A third reference, BM25 over the page units of pt's own index, tells what
// pt's indexing alone adds. Each question is asked once to warm caches
// before timing.
func (e *Engine) Eval(ctx context.Context, qs []Question, opts EvalOptions) (*EvalReport, error) {
	s := e.space
	req := withDefaults(Request{K: opts.K, Budget: opts.Budget, Now: opts.Now})
	if req.Now.IsZero() {
		req.Now = s.Now()
	}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	kw, err := newKeywordBaseline(ctx, s, head)
	if err != nil {
		return nil, err
	}
	plain, err := newPlainBM25(ctx, s, head)
	if err != nil {
		return nil, err
	}
	defer plain.Close()
	systems := []system{
		{name: "pt", honest: true, run: func(ctx context.Context, q Question) ([]string, int, bool, float64, error) {
			r := req
			r.Question = q.Question
			res, err := e.Query(ctx, r)
			if err != nil {
				return nil, 0, false, 0, err
			}
			var ps []string
			for _, h := range res.Results {
				ps = append(ps, h.Path)
			}
			return ps, res.Tokens, res.Sufficient, res.Trace.Coverage, nil
		}},
		{name: "bm25-pages", run: func(ctx context.Context, q Question) ([]string, int, bool, float64, error) {
			ps, tokens, err := plain.search(ctx, q.Question, req)
			return ps, tokens, len(ps) > 0, 0, err
		}},
		{name: "keyword-count", run: func(ctx context.Context, q Question) ([]string, int, bool, float64, error) {
			ps, tokens := kw.search(q.Question, req)
			return ps, tokens, len(ps) > 0, 0, nil
		}},
		{name: "bm25-pt-index", run: func(ctx context.Context, q Question) ([]string, int, bool, float64, error) {
			// The index is taken per question, as Query takes it: a
			// query holds it only while it runs, so that a rebuild can wait.
			h, err := e.acquire(ctx, head)
			if err != nil {
				return nil, 0, false, 0, err
			}
			defer h.release()
			ps, tokens, err := bm25Pages(ctx, h.ix, q.Question, req)
			return ps, tokens, len(ps) > 0, 0, err
		}},
	}
	rep := &EvalReport{Questions: len(qs), Results: []QuestionResult{}}
	for si, sys := range systems {
		f := Figures{System: sys.name, Insufficient: -1, FalseNegatives: -1}
		var tokens []int
		var lat []float64
		var rr, h1, h5, mh, insuf, fneg float64
		for qi, q := range qs {
			if _, _, _, _, err := sys.run(ctx, q); err != nil { // warm
				return nil, fmt.Errorf("eval %s: %w", q.ID, err)
			}
			start := time.Now()
			paths, tok, ok, cov, err := sys.run(ctx, q)
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
			if err != nil {
				return nil, fmt.Errorf("eval %s: %w", q.ID, err)
			}
			if ok && tok > 0 {
				tokens = append(tokens, tok)
			}
			rank, all := goldRank(paths, q.Gold, 8)
			if len(q.Gold) == 0 {
				f.Unanswerable++
				if !ok {
					insuf++
				}
			} else {
				f.Answerable++
				if !ok {
					fneg++
				}
				if rank == 1 {
					h1++
				}
				if rank >= 1 && rank <= 5 {
					h5++
				}
				if rank > 0 {
					rr += 1 / float64(rank)
				}
				if q.Kind == "multi-hop" {
					f.MultiHopN++
					if all {
						mh++
					}
				}
			}
			switch si {
			case 0:
				rep.Results = append(rep.Results, QuestionResult{ID: q.ID, Kind: q.Kind, Gold: q.Gold, Rank: rank,
					Sufficient: ok, Coverage: cov, Tokens: tok, Top: paths})
			case 1:
				rep.Results[qi].BM25Rank = rank
			}
		}
		if f.Answerable > 0 {
			n := float64(f.Answerable)
			f.HitAt1, f.HitAt5, f.MRR = round3(h1/n), round3(h5/n), round3(rr/n)
			if sys.honest {
				f.FalseNegatives = round3(fneg / n)
			}
		}
		if f.MultiHopN > 0 {
			f.MultiHop = round3(mh / float64(f.MultiHopN))
		}
		if sys.honest && f.Unanswerable > 0 {
			f.Insufficient = round3(insuf / float64(f.Unanswerable))
		}
		f.MedianTokens = int(percentile(floats(tokens), 0.5))
		f.P90Tokens = int(percentile(floats(tokens), 0.9))
		f.MedianLatencyMS = round3(percentile(lat, 0.5))
		rep.Systems = append(rep.Systems, f)
	}
	return rep, nil
}

func floats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// percentile is the nearest-rank percentile of xs (0 for none).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}
