package wiki_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

func TestGapsCountAndBound(t *testing.T) {
	s, _ := newSpace(t)
	for i, q := range []string{"How do replays work?", "how do  replays work", "Who owns billing", "HOW DO REPLAYS WORK."} {
		if err := s.RecordGap(wiki.Gap{Question: q, Last: t0.Add(time.Duration(i) * time.Minute), Nearest: []string{"topics/ledger.md"}}, 10); err != nil {
			t.Fatal(err)
		}
	}
	gaps, err := s.Gaps()
	if err != nil || len(gaps) != 2 || gaps[0].Count != 3 || gaps[1].Question != "Who owns billing" {
		t.Fatalf("gaps: %+v %v", gaps, err)
	}
	if g := gaps[0]; !g.First.Equal(t0) || !g.Last.Equal(t0.Add(3*time.Minute)) || g.Question != "HOW DO REPLAYS WORK." {
		t.Errorf("first, last and latest wording: %+v", g)
	}
	// The log stays bounded: past a megabyte it keeps the questions asked
	// most recently.
	for i := range 12000 {
		q := fmt.Sprintf("question number %d about a subject nobody wrote down yet, asked by an agent", i)
		if err := s.RecordGap(wiki.Gap{Question: q, Last: t0.Add(time.Duration(i) * time.Second)}, 50); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(s.StateDir(), "gaps.jsonl"))
	if err != nil || fi.Size() > 1<<20+4096 {
		t.Fatalf("gap log size %v (%v)", fi.Size(), err)
	}
	gaps, _ = s.Gaps()
	found := false
	for _, g := range gaps {
		found = found || g.Question == "question number 11999 about a subject nobody wrote down yet, asked by an agent"
	}
	if !found || len(gaps) > 12000-50 {
		t.Errorf("after compaction: %d questions, latest kept %v", len(gaps), found)
	}
}
