package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// QuestionPair is two related questions: the first is consulted and filed
// back, the second asked afterwards. Answer and Cite are the first
// question's answer as an agent would give it; without them pt composes one.
type QuestionPair struct {
	ID     string   `json:"id"`
	First  string   `json:"first"`
	Answer string   `json:"answer,omitempty"`
	Cite   []string `json:"cite,omitempty"`
	Second string   `json:"second"`
}

// PairResult is what one pair showed.
type PairResult struct {
	ID      string `json:"id"`
	Verdict string `json:"verdict"` // of the first question's consult
	Gate    string `json:"gate,omitempty"`
	Page    string `json:"page,omitempty"`
	// Rank is the synthesis page's rank among the distinct pages returned
	// for the second question (1 is best; 0 when absent or not filed).
	Rank           int  `json:"rank"`
	ColdTokens     int  `json:"cold_tokens"` // context for the second question before the first was filed
	WarmTokens     int  `json:"warm_tokens"` // and after
	ColdSufficient bool `json:"cold_sufficient"`
	WarmSufficient bool `json:"warm_sufficient"`
}

// CompoundingReport measures compounding: how often an answer filed back
// comes back for a related later question, and what it does to the
// context that question needs.
type CompoundingReport struct {
	Pairs int `json:"pairs"`
	Filed int `json:"filed"`
	// Top3 counts filed pairs whose synthesis ranked in the top 3 for the
	// second question; Top3Rate is Top3 / Filed.
	Top3     int     `json:"top3"`
	Top3Rate float64 `json:"top3_rate"`
	// MeanColdTokens and MeanWarmTokens are the second questions' context
	// sizes over the filed pairs; TokenChange is their relative change
	// (warm / cold - 1).
	MeanColdTokens float64 `json:"mean_cold_tokens"`
	MeanWarmTokens float64 `json:"mean_warm_tokens"`
	TokenChange    float64 `json:"token_change"`
	// SufficientCold and SufficientWarm count second questions answered
	// sufficiently before and after.
	SufficientCold int          `json:"sufficient_cold"`
	SufficientWarm int          `json:"sufficient_warm"`
	Results        []PairResult `json:"results"`
}

// ReadPairs parses a JSONL file of question pairs; a bad line is an error
// naming its number.
func ReadPairs(r io.Reader) ([]QuestionPair, error) {
	return content.ReadJSONL(r, "pairs", func(p QuestionPair) error {
		if strings.TrimSpace(p.First) == "" || strings.TrimSpace(p.Second) == "" {
			return errors.New("a pair needs first and second")
		}
		return nil
	})
}

// Compounding runs the pairs in order on s: for each, it asks the second
// question cold, files the first back (through every gate, as pt consult
// would), and asks the second again. It writes file-back batches to s, so
// run it on a scratch copy (ScratchCopy) unless the answers belong there.
func Compounding(ctx context.Context, s *wiki.Space, r Retriever, pairs []QuestionPair) (*CompoundingReport, error) {
	rep := &CompoundingReport{Pairs: len(pairs), Results: []PairResult{}}
	var cold, warm int
	for _, p := range pairs {
		now := s.Now()
		before, err := r.Query(ctx, retrieve.Request{Question: p.Second, Now: now})
		if err != nil {
			return nil, fmt.Errorf("pair %s: %w", p.ID, err)
		}
		v, err := FileBack(ctx, s, Consult{Question: p.First, Answer: p.Answer, Citations: p.Cite, AskedBy: "pt eval-compounding", When: now, Retriever: r})
		if err != nil {
			return nil, fmt.Errorf("pair %s: %w", p.ID, err)
		}
		after, err := r.Query(ctx, retrieve.Request{Question: p.Second, Now: now})
		if err != nil {
			return nil, fmt.Errorf("pair %s: %w", p.ID, err)
		}
		r := PairResult{ID: p.ID, Verdict: v.Verdict, Gate: v.Gate, Page: v.Page,
			ColdTokens: before.Tokens, WarmTokens: after.Tokens, ColdSufficient: before.Sufficient, WarmSufficient: after.Sufficient}
		if before.Sufficient {
			rep.SufficientCold++
		}
		if after.Sufficient {
			rep.SufficientWarm++
		}
		if v.Verdict == VerdictFiled {
			rep.Filed++
			r.Rank = pageRank(after, v.Page)
			if r.Rank >= 1 && r.Rank <= 3 {
				rep.Top3++
			}
			cold += before.Tokens
			warm += after.Tokens
		}
		rep.Results = append(rep.Results, r)
	}
	if rep.Filed > 0 {
		rep.Top3Rate = float64(rep.Top3) / float64(rep.Filed)
		rep.MeanColdTokens = float64(cold) / float64(rep.Filed)
		rep.MeanWarmTokens = float64(warm) / float64(rep.Filed)
		if cold > 0 {
			rep.TokenChange = float64(warm)/float64(cold) - 1
		}
	}
	return rep, nil
}

// pageRank is p's rank among the distinct pages of res (0 when absent).
func pageRank(res *retrieve.Result, p string) int {
	seen := map[string]bool{}
	for _, h := range res.Results {
		if seen[h.Path] {
			continue
		}
		seen[h.Path] = true
		if h.Path == p {
			return len(seen)
		}
	}
	return 0
}

// ScratchCopy copies the files of s at HEAD into a new space in dir (a new
// repository), so that an evaluation can file answers back without
// touching s. History is not copied: the copy is one init commit and one
// batch holding every file.
func ScratchCopy(ctx context.Context, s *wiki.Space, dir string) (*wiki.Space, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := s.List(ctx, head, "")
	if err != nil {
		return nil, err
	}
	c, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: s.Config().Name})
	if err != nil {
		return nil, fmt.Errorf("scratch copy: %w", err)
	}
	_, err = c.Apply(ctx, wiki.Batch{Kind: wiki.KindImport, Title: "scratch copy for an evaluation", ApprovedBy: "pt"}, func(ctx context.Context, tx *wiki.Tx) error {
		for _, f := range files {
			data, _, err := s.ReadFile(ctx, head, f.Path)
			if err != nil {
				return err
			}
			if _, err := tx.PutFile(ctx, f.Path, data, wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	c.Close()
	if err != nil {
		return nil, fmt.Errorf("scratch copy: %w", err)
	}
	return wiki.Open(ctx, dir)
}
