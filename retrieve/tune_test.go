package retrieve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTune sweeps ranking settings over the corpora (PT_TUNE=1); it prints
// figures and asserts nothing, for choosing the defaults in fuse.go.
func TestTune(t *testing.T) {
	if os.Getenv("PT_TUNE") == "" {
		t.Skip("set PT_TUNE=1")
	}
	type corpus struct {
		s  interface{}
		qs []Question
	}
	load := func(p string) []Question {
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		qs, _ := ReadQuestions(f)
		return qs
	}
	gq := append(load(filepath.Join(corporaDir(), "gowiki-dev-questions.jsonl")), load("testdata/gowiki-questions.jsonl")...)
	kq := append(load(filepath.Join(corporaDir(), "k8s-dev-questions.jsonl")), load("testdata/k8s-questions.jsonl")...)
	g := corpusSpace(t, filepath.Join(corporaDir(), "gowiki"))
	k := corpusSpace(t, filepath.Join(corporaDir(), "k8s-community"))
	base := tune
	defer func() { tune = base }()
	variants := map[string]func(){
		"union":     func() { tune.noSuff = true; tune.coverMaxWeight = 0 },
		"max":       func() { tune.noSuff = true; tune.coverMaxWeight = 1 },
		"half":      func() { tune.noSuff = true; tune.coverMaxWeight = 0.5 },
		"top5-half": func() { tune.noSuff = true; tune.coverMaxWeight = 0.5; tune.coverTop = 5 },
		"sec-half":  func() { tune.noSuff = true; tune.coverMaxWeight = 0.5; tune.coverPages = false },
	}
	only := os.Getenv("PT_TUNE_ONLY")
	for name, f := range variants {
		if only != "" && only != name {
			continue
		}
		tune = base
		f()
		line := name
		for _, c := range []struct {
			s  interface{ Close() error }
			qs []Question
		}{{g, gq}, {k, kq}} {
			_ = c
		}
		for i, sq := range []([]Question){gq, kq} {
			sp := g
			if i == 1 {
				sp = k
			}
			rep, err := Eval(context.Background(), sp, sq, EvalOptions{Now: testWhen})
			if err != nil {
				t.Fatal(err)
			}
			p := rep.Systems[0]
			var neg, pos []float64
			for _, r := range rep.Results {
				if len(r.Gold) == 0 {
					neg = append(neg, r.Coverage)
				} else {
					pos = append(pos, r.Coverage)
				}
			}
			slices.Sort(neg)
			slices.Sort(pos)
			t.Logf("%s cov neg %v pos %v", name, neg, pos)
			if os.Getenv("PT_TUNE_V") != "" {
				for _, r := range rep.Results {
					if len(r.Gold) > 0 && (r.Rank == 0 || r.Rank > 3 || (r.BM25Rank > 0 && r.BM25Rank < r.Rank)) {
						t.Logf("  %s rank %d bm25 %d cov %.2f gold %v top %v", r.ID, r.Rank, r.BM25Rank, r.Coverage, r.Gold, r.Top[:min(5, len(r.Top))])
					}
				}
			}
			line += fmt.Sprintf(" | h1 %.2f h5 %.2f mrr %.2f mh %.2f neg %.2f fneg %.2f tok %d", p.HitAt1, p.HitAt5, p.MRR, p.MultiHop, p.Insufficient, p.FalseNegatives, p.MedianTokens)
		}
		t.Log(line)
	}
}
