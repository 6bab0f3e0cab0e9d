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
	Kind     string   `json:"kind,omitempty"` // lookup, paraphrase, multi-hop, negative, unstated, ...
	Near     []string `json:"near,omitempty"` // unstated questions: the pages on the subject, which do not state the detail asked
}

// KindUnstated marks an unanswerable question whose subject the space
// covers, the detail asked being stated nowhere; its refusal is reported
// apart from that of questions on subjects the space does not cover.
const KindUnstated = "unstated"

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
// Insufficient over unanswerable ones, split into OffSubject (questions on a
// subject the space does not cover: every unanswerable question but the
// unstated ones) and Unstated; MultiHop over multi-hop ones (all gold pages
// within the top 8). A refused answerable question counts as a miss.
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
	OffSubjectN     int     `json:"off_subject_questions"`
	OffSubject      float64 `json:"off_subject_insufficient"` // share of off-subject questions answered insufficient (the gate's target); -1 as Insufficient
	UnstatedN       int     `json:"unstated_questions"`
	Unstated        float64 `json:"unstated_insufficient"` // share of unstated questions answered insufficient (reported, not a target); -1 as Insufficient
	UnstatedNear    float64 `json:"unstated_near_top5"`    // share of unstated questions whose subject page is in the top 5 results, or among the nearest pages when refused
	MedianTokens    int     `json:"median_context_tokens"` // over questions answered with a context
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
	Top        []string `json:"top"`               // result paths, best first
	Nearest    []string `json:"nearest,omitempty"` // the nearest pages' paths, when refused
	BM25Rank   int      `json:"bm25_rank"`         // the same for the plain BM25 baseline
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
	run    func(ctx context.Context, q Question) (outcome, error)
}

// outcome is a system's answer to one question.
type outcome struct {
	paths      []string // results, best first
	near       []string // the nearest pages of a refused answer
	tokens     int
	sufficient bool
	cov        float64
}

// tally counts one system's outcomes over a question set.
type tally struct {
	rr, h1, h5, mh, insuf, fneg, off, unst, near float64
	tokens                                       []int
	lat                                          []float64
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
	found := func(ps []string, tokens int) outcome {
		return outcome{paths: ps, tokens: tokens, sufficient: len(ps) > 0}
	}
	systems := []system{
		{name: "pt", honest: true, run: func(ctx context.Context, q Question) (outcome, error) {
			r := req
			r.Question = q.Question
			res, err := e.Query(ctx, r)
			if err != nil {
				return outcome{}, err
			}
			o := outcome{tokens: res.Tokens, sufficient: res.Sufficient, cov: res.Trace.Coverage}
			for _, h := range res.Results {
				o.paths = append(o.paths, h.Path)
			}
			for _, n := range res.Nearest {
				o.near = append(o.near, n.Path)
			}
			return o, nil
		}},
		{name: "bm25-pages", run: func(ctx context.Context, q Question) (outcome, error) {
			ps, tokens, err := plain.search(ctx, q.Question, req)
			return found(ps, tokens), err
		}},
		{name: "keyword-count", run: func(ctx context.Context, q Question) (outcome, error) {
			return found(kw.search(q.Question, req)), nil
		}},
		{name: "bm25-pt-index", run: func(ctx context.Context, q Question) (outcome, error) {
			// The index is taken per question, as Query takes it: a
			// query holds it only while it runs, so that a rebuild can wait.
			h, err := e.acquire(ctx, head)
			if err != nil {
				return outcome{}, err
			}
			defer h.release()
			ps, tokens, err := bm25Pages(ctx, h.ix, q.Question, req)
			return found(ps, tokens), err
		}},
	}
	rep := &EvalReport{Questions: len(qs), Results: []QuestionResult{}}
	for si, sys := range systems {
		f, err := score(ctx, sys, qs, si, rep)
		if err != nil {
			return nil, err
		}
		rep.Systems = append(rep.Systems, f)
	}
	return rep, nil
}

// score asks every question of qs of one system and returns its figures;
// the first system's (pt's) per-question results go into rep, and the
// second's (plain BM25's) rank beside them.
func score(ctx context.Context, sys system, qs []Question, si int, rep *EvalReport) (Figures, error) {
	f := Figures{System: sys.name, Insufficient: -1, FalseNegatives: -1, OffSubject: -1, Unstated: -1}
	var t tally
	for qi, q := range qs {
		if _, err := sys.run(ctx, q); err != nil { // warm
			return f, fmt.Errorf("eval %s: %w", q.ID, err)
		}
		start := time.Now()
		o, err := sys.run(ctx, q)
		t.lat = append(t.lat, float64(time.Since(start).Microseconds())/1000)
		if err != nil {
			return f, fmt.Errorf("eval %s: %w", q.ID, err)
		}
		rank := t.add(&f, q, o)
		switch si {
		case 0:
			rep.Results = append(rep.Results, QuestionResult{ID: q.ID, Kind: q.Kind, Gold: q.Gold, Rank: rank,
				Sufficient: o.sufficient, Coverage: o.cov, Tokens: o.tokens, Top: o.paths, Nearest: o.near})
		case 1:
			rep.Results[qi].BM25Rank = rank
		}
	}
	t.figures(&f, sys.honest)
	return f, nil
}

// add counts one outcome and returns the rank of its first gold page.
func (t *tally) add(f *Figures, q Question, o outcome) int {
	if o.sufficient && o.tokens > 0 {
		t.tokens = append(t.tokens, o.tokens)
	}
	rank, all := goldRank(o.paths, q.Gold, 8)
	switch {
	case len(q.Gold) == 0:
		f.Unanswerable++
		if !o.sufficient {
			t.insuf++
		}
		if q.Kind != KindUnstated {
			f.OffSubjectN++
			if !o.sufficient {
				t.off++
			}
			break
		}
		f.UnstatedN++
		if !o.sufficient {
			t.unst++
		}
		if r, _ := goldRank(append(o.paths, o.near...), q.Near, 8); r >= 1 && (r <= 5 || !o.sufficient) {
			t.near++
		}
	default:
		f.Answerable++
		if !o.sufficient {
			t.fneg++
		}
		if rank == 1 {
			t.h1++
		}
		if rank >= 1 && rank <= 5 {
			t.h5++
		}
		if rank > 0 {
			t.rr += 1 / float64(rank)
		}
		if q.Kind == "multi-hop" {
			f.MultiHopN++
			if all {
				t.mh++
			}
		}
	}
	return rank
}

// figures turns the counts into rates.
func (t *tally) figures(f *Figures, honest bool) {
	rate := func(x float64, n int) float64 { return round3(x / float64(n)) }
	if f.Answerable > 0 {
		f.HitAt1, f.HitAt5, f.MRR = rate(t.h1, f.Answerable), rate(t.h5, f.Answerable), rate(t.rr, f.Answerable)
		if honest {
			f.FalseNegatives = rate(t.fneg, f.Answerable)
		}
	}
	if f.MultiHopN > 0 {
		f.MultiHop = rate(t.mh, f.MultiHopN)
	}
	if honest && f.Unanswerable > 0 {
		f.Insufficient = rate(t.insuf, f.Unanswerable)
	}
	if honest && f.OffSubjectN > 0 {
		f.OffSubject = rate(t.off, f.OffSubjectN)
	}
	if honest && f.UnstatedN > 0 {
		f.Unstated = rate(t.unst, f.UnstatedN)
	}
	if f.UnstatedN > 0 {
		f.UnstatedNear = rate(t.near, f.UnstatedN)
	}
	f.MedianTokens = int(percentile(floats(t.tokens), 0.5))
	f.P90Tokens = int(percentile(floats(t.tokens), 0.9))
	f.MedianLatencyMS = round3(percentile(t.lat, 0.5))
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
