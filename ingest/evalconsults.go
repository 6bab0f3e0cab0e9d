package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// LabelledConsult is one consult of an evaluation file: an agent's answer
// over a corpus, with the verdict the file-back rules call for.
type LabelledConsult struct {
	ID       string `json:"id"`
	Corpus   string `json:"corpus"` // a folder of the corpus root
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Citations are paths relative to the corpus folder; in the scratch
	// space the corpus file X.md is sources/X.md.
	Citations []string `json:"citations"`
	Expected  string   `json:"expected"` // filed | skipped
	// Gate is the gate expected to stop it ("" when filed).
	Gate string `json:"gate"`
	// Durability is the expected durability of a filed consult.
	Durability string `json:"durability"`
	Category   string `json:"category"`
	// Group pairs consults that ask the same question: the first files,
	// the second is its near-duplicate.
	Group string `json:"group,omitempty"`
	Note  string `json:"note,omitempty"`
}

// Label is the verdict as the evaluation compares it: "filed durable",
// "filed time_bound" or "skipped <gate>".
func (c LabelledConsult) Label() string {
	if c.Expected == VerdictFiled {
		return VerdictFiled + " " + c.Durability
	}
	return VerdictSkipped + " " + c.Gate
}

// verdictLabel is a verdict spelled as Label spells the expectation.
func verdictLabel(v *Verdict) string {
	if v.Verdict == VerdictFiled {
		return VerdictFiled + " " + v.Durability
	}
	return VerdictSkipped + " " + v.Gate
}

// ReadLabelledConsults parses a JSONL file of labelled consults; a bad line
// is an error naming its number.
func ReadLabelledConsults(r io.Reader) ([]LabelledConsult, error) {
	return content.ReadJSONL(r, "consults", func(c LabelledConsult) error {
		switch {
		case strings.TrimSpace(c.ID) == "":
			return errors.New("a consult needs an id")
		case strings.TrimSpace(c.Corpus) == "" || strings.ContainsAny(c.Corpus, `/\`) || strings.HasPrefix(c.Corpus, "."):
			return fmt.Errorf("consult %s: corpus %q is not a folder name", c.ID, c.Corpus)
		case strings.TrimSpace(c.Question) == "":
			return fmt.Errorf("consult %s: empty question", c.ID)
		case c.Expected != VerdictFiled && c.Expected != VerdictSkipped:
			return fmt.Errorf("consult %s: expected %q, want filed or skipped", c.ID, c.Expected)
		case c.Expected == VerdictSkipped && c.Gate == "":
			return fmt.Errorf("consult %s: a skipped consult names its gate", c.ID)
		}
		return nil
	})
}

// ConsultEvalOptions says where the corpora are and where the scratch
// spaces go.
type ConsultEvalOptions struct {
	// CorpusRoot holds one folder per corpus named by the consults.
	CorpusRoot string
	// Dir is an empty or missing directory for the scratch spaces (one per
	// corpus); the caller removes it.
	Dir string
	// Clock dates the scratch spaces' batches and the consults; nil is the
	// wall clock.
	Clock wiki.Clock
	// Progress, when set, is told what the evaluation is doing.
	Progress func(msg string)
}

// ConsultOutcome is what became of one labelled consult.
type ConsultOutcome struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	Expected string `json:"expected"` // as Label spells it
	Got      string `json:"got"`
	Right    bool   `json:"right"`
	Reason   string `json:"reason"`
}

// ConfusionCell counts the consults expected as one label and got as
// another.
type ConfusionCell struct {
	Expected string `json:"expected"`
	Got      string `json:"got"`
	N        int    `json:"n"`
}

// CategoryFigure is the share of right verdicts within one category.
type CategoryFigure struct {
	Category string  `json:"category"`
	N        int     `json:"n"`
	Right    int     `json:"right"`
	Rate     float64 `json:"rate"`
}

// ConsultEvalReport is what pt eval --consults prints: the right verdicts,
// the confusion table (expected × got, each with its gate or durability)
// and the figures per category, plus the two failures that matter most:
// live state filed, and syntheses refused as echoes.
type ConsultEvalReport struct {
	Consults   int              `json:"consults"`
	Right      int              `json:"right"`
	Accuracy   float64          `json:"accuracy"`
	Confusion  []ConfusionCell  `json:"confusion"`
	Categories []CategoryFigure `json:"categories"`
	// LiveStateFiled counts consults expected to stop at the durability
	// gate that were filed.
	LiveStateFiled int `json:"live_state_filed"`
	// SynthesesAsEchoes counts syntheses (expected filed) that the echo
	// gate refused.
	SynthesesAsEchoes int              `json:"syntheses_as_echoes"`
	Outcomes          []ConsultOutcome `json:"outcomes"`
}

// EvalConsults imports each corpus the consults name once into a scratch
// space, runs the consults in file order through FileBack (filing for real,
// so that a near-duplicate sees the answer filed before it), and compares
// every verdict with its label.
func EvalConsults(ctx context.Context, consults []LabelledConsult, opts ConsultEvalOptions) (*ConsultEvalReport, error) {
	if opts.CorpusRoot == "" || opts.Dir == "" {
		return nil, errors.New("eval consults: a corpus root and a scratch directory are needed")
	}
	spaces := map[string]*wiki.Space{}
	engines := map[string]*retrieve.Engine{}
	defer func() {
		for k, s := range spaces {
			engines[k].Close()
			s.Close()
		}
	}()
	rep := &ConsultEvalReport{Outcomes: []ConsultOutcome{}}
	for _, c := range consults {
		s := spaces[c.Corpus]
		if s == nil {
			var err error
			if s, err = corpusSpace(ctx, c.Corpus, opts); err != nil {
				return nil, err
			}
			spaces[c.Corpus] = s
			engines[c.Corpus] = retrieve.Open(s, retrieve.Options{})
		}
		cites := make([]string, len(c.Citations))
		for i, p := range c.Citations {
			cites[i] = "sources/" + path.Clean(strings.TrimPrefix(p, "/"))
		}
		v, err := FileBack(ctx, s, Consult{Question: c.Question, Answer: c.Answer, Citations: cites,
			AskedBy: "pt eval", Author: wiki.Author{Kind: content.AuthorAgent, Name: "pt eval"}, Retriever: engines[c.Corpus]})
		if err != nil {
			return nil, fmt.Errorf("consult %s: %w", c.ID, err)
		}
		o := ConsultOutcome{ID: c.ID, Category: c.Category, Expected: c.Label(), Got: verdictLabel(v), Reason: v.Reason}
		o.Right = o.Expected == o.Got
		rep.Outcomes = append(rep.Outcomes, o)
	}
	rep.tally(consults)
	return rep, nil
}

// corpusSpace makes a scratch space and imports the corpus into it.
func corpusSpace(ctx context.Context, corpus string, opts ConsultEvalOptions) (*wiki.Space, error) {
	dir := filepath.Join(opts.CorpusRoot, corpus)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("eval consults: corpus %s: no folder %s", corpus, dir)
	}
	if opts.Progress != nil {
		opts.Progress("importing " + corpus)
	}
	s, _, err := wiki.Init(ctx, filepath.Join(opts.Dir, corpus), wiki.InitOptions{Name: corpus, Clock: opts.Clock})
	if err != nil {
		return nil, fmt.Errorf("eval consults: %w", err)
	}
	if _, err := Import(ctx, s, dir, ImportOptions{ApprovedBy: "pt eval", Author: wiki.Author{Kind: content.AuthorAgent, Name: "pt eval"}}); err != nil {
		s.Close()
		return nil, fmt.Errorf("eval consults: import %s: %w", corpus, err)
	}
	return s, nil
}

// tally fills the figures from the outcomes.
func (rep *ConsultEvalReport) tally(consults []LabelledConsult) {
	cells := map[[2]string]int{}
	cats := map[string]*CategoryFigure{}
	for i, o := range rep.Outcomes {
		rep.Consults++
		cells[[2]string{o.Expected, o.Got}]++
		f := cats[o.Category]
		if f == nil {
			f = &CategoryFigure{Category: o.Category}
			cats[o.Category] = f
		}
		f.N++
		if o.Right {
			rep.Right++
			f.Right++
		}
		c := consults[i]
		if c.Expected == VerdictSkipped && c.Gate == GateDurability && strings.HasPrefix(o.Got, VerdictFiled) {
			rep.LiveStateFiled++
		}
		if c.Expected == VerdictFiled && o.Got == VerdictSkipped+" "+GateEcho {
			rep.SynthesesAsEchoes++
		}
	}
	if rep.Consults > 0 {
		rep.Accuracy = float64(rep.Right) / float64(rep.Consults)
	}
	for k, n := range cells {
		rep.Confusion = append(rep.Confusion, ConfusionCell{Expected: k[0], Got: k[1], N: n})
	}
	sort.Slice(rep.Confusion, func(i, j int) bool {
		a, b := rep.Confusion[i], rep.Confusion[j]
		if a.Expected != b.Expected {
			return a.Expected < b.Expected
		}
		return a.Got < b.Got
	})
	for _, f := range cats {
		f.Rate = float64(f.Right) / float64(f.N)
		rep.Categories = append(rep.Categories, *f)
	}
	sort.Slice(rep.Categories, func(i, j int) bool { return rep.Categories[i].Category < rep.Categories[j].Category })
}
