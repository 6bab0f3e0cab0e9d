package ingest_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// TestEvalConsults runs the harness on a corpus of three pages with one
// consult of each kind, and one labelled wrong on purpose.
func TestEvalConsults(t *testing.T) {
	f, err := os.Open("testdata/evalconsults/consults.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	consults, err := ingest.ReadLabelledConsults(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ingest.EvalConsults(context.Background(), consults, ingest.ConsultEvalOptions{
		CorpusRoot: "testdata/evalconsults", Dir: t.TempDir(), Clock: wiki.SteppingClock(fbWhen, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rep.Outcomes {
		got[o.ID] = o.Got
	}
	want := map[string]string{
		"m-1": "filed durable", "m-2": "skipped near_duplicate", "m-3": "skipped durability", "m-4": "filed time_bound",
		"m-5": "skipped echo", "m-6": "filed durable", "m-7": "skipped citations", "m-8": "filed durable",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("verdicts (-want +got):\n%s", d)
	}
	if rep.Consults != 8 || rep.Right != 7 || rep.Accuracy != 7.0/8 || rep.LiveStateFiled != 0 || rep.SynthesesAsEchoes != 0 {
		t.Errorf("report %d consults, %d right (%.3f), live filed %d, syntheses as echoes %d", rep.Consults, rep.Right, rep.Accuracy, rep.LiveStateFiled, rep.SynthesesAsEchoes)
	}
	cell := ingest.ConfusionCell{Expected: "skipped echo", Got: "filed durable", N: 1}
	found := false
	for _, c := range rep.Confusion {
		found = found || c == cell
	}
	if !found {
		t.Errorf("confusion lacks %+v: %+v", cell, rep.Confusion)
	}
	for _, c := range rep.Categories {
		if c.Category == "mislabelled" && (c.N != 1 || c.Right != 0) || c.Category != "mislabelled" && c.Right != c.N {
			t.Errorf("category %+v", c)
		}
	}
}

// TestReadLabelledConsultsBad: a bad line is one error naming it.
func TestReadLabelledConsultsBad(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"id": "x", "corpus": "../etc", "question": "q", "expected": "filed"}`, "not a folder name"},
		{`{"id": "x", "corpus": "mini", "question": "q", "expected": "maybe"}`, `expected "maybe"`},
		{`{"id": "x", "corpus": "mini", "question": "q", "expected": "skipped"}`, "names its gate"},
		{`{"corpus": "mini", "question": "q", "expected": "filed"}`, "needs an id"},
		{`not json`, "line 1"},
	} {
		_, err := ingest.ReadLabelledConsults(strings.NewReader(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.line, err, tc.want)
		}
	}
}
