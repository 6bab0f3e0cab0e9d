package sketch

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

type labelledPair struct {
	name, label string
	a, b        Sketch
}

func loadPairs(t *testing.T) []labelledPair {
	t.Helper()
	files, err := readTxtar("testdata/similar/pairs.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var pairs []labelledPair
	for name, a := range files {
		dir, ok := strings.CutSuffix(name, "/a")
		if !ok {
			continue
		}
		b, ok := files[dir+"/b"]
		if !ok {
			t.Fatalf("%s has no b", dir)
		}
		pairs = append(pairs, labelledPair{name: dir, label: strings.Split(dir, "/")[0], a: Fingerprint(a), b: Fingerprint(b)})
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].name < pairs[j].name })
	return pairs
}

// prf returns precision and recall of "score >= threshold" as a predictor.
func prf(scores []float64, positive []bool, threshold float64) (p, r float64, fp, fn []int) {
	tp := 0
	npos := 0
	for i, s := range scores {
		if positive[i] {
			npos++
		}
		switch {
		case s >= threshold && positive[i]:
			tp++
		case s >= threshold:
			fp = append(fp, i)
		case positive[i]:
			fn = append(fn, i)
		}
	}
	p, r = 1, 1
	if tp+len(fp) > 0 {
		p = float64(tp) / float64(tp+len(fp))
	}
	if npos > 0 {
		r = float64(tp) / float64(npos)
	}
	return p, r, fp, fn
}

// TestSimilarityLabelled measures the default thresholds on the
// hand-labelled pairs in testdata/similar/pairs.txtar and prints precision
// and recall. Near-duplicate: dup pairs are positive, diff pairs negative.
// Echo (Containment of a in b): dup and echo pairs positive, diff and
// noecho pairs negative.
func TestSimilarityLabelled(t *testing.T) {
	pairs := loadPairs(t)
	count := map[string]int{}
	var ndScores, echoScores []float64
	var ndPos, echoPos []bool
	var ndIdx, echoIdx []int
	minPos, maxNeg := map[string]float64{"nd": 1, "echo": 1}, map[string]float64{}
	for i, p := range pairs {
		count[p.label]++
		j, c := Similarity(p.a, p.b), Containment(p.a, p.b)
		t.Logf("%-32s J=%.2f C=%.2f", p.name, j, c)
		if p.label == "dup" || p.label == "diff" {
			ndScores, ndPos, ndIdx = append(ndScores, j), append(ndPos, p.label == "dup"), append(ndIdx, i)
			if p.label == "dup" {
				minPos["nd"] = min(minPos["nd"], j)
			} else {
				maxNeg["nd"] = max(maxNeg["nd"], j)
			}
		}
		pos := p.label == "dup" || p.label == "echo"
		echoScores, echoPos, echoIdx = append(echoScores, c), append(echoPos, pos), append(echoIdx, i)
		if pos {
			minPos["echo"] = min(minPos["echo"], c)
		} else {
			maxNeg["echo"] = max(maxNeg["echo"], c)
		}
	}
	if count["dup"] < 20 || count["diff"] < 20 {
		t.Fatalf("labelled set too small: %v", count)
	}
	for _, m := range []struct {
		name      string
		scores    []float64
		pos       []bool
		idx       []int
		threshold float64
		key       string
	}{
		{"near-duplicate (Similarity)", ndScores, ndPos, ndIdx, DefaultNearDuplicate, "nd"},
		{"echo (Containment)", echoScores, echoPos, echoIdx, DefaultEcho, "echo"},
	} {
		p, r, fp, fn := prf(m.scores, m.pos, m.threshold)
		t.Logf("%s at %.2f: precision %.2f, recall %.2f (%d pairs; lowest positive %.2f, highest negative %.2f)",
			m.name, m.threshold, p, r, len(m.scores), minPos[m.key], maxNeg[m.key])
		for _, i := range fp {
			t.Logf("  false positive: %s", pairs[m.idx[i]].name)
		}
		for _, i := range fn {
			t.Logf("  false negative: %s", pairs[m.idx[i]].name)
		}
		if p < 0.9 || r < 0.9 {
			t.Errorf("%s: precision %.2f recall %.2f, want both >= 0.9", m.name, p, r)
		}
	}
}

func TestFingerprintProperties(t *testing.T) {
	text := "The index is keyed by commit. It is rebuilt when missing."
	if a, b := Fingerprint(text), Fingerprint(text); a != b {
		t.Error("Fingerprint is not deterministic")
	}
	if got := Similarity(Fingerprint(text), Fingerprint(text)); got != 1 {
		t.Errorf("self-similarity = %v", got)
	}
	md := "**The index** is keyed by [commit](x.md).\n\n- It is rebuilt when *missing*!"
	if got := Similarity(Fingerprint(text), Fingerprint(md)); got != 1 {
		t.Errorf("Markdown markup changed the sketch: similarity %v", got)
	}
	if got := Similarity(Fingerprint(""), Fingerprint("")); got != 0 {
		t.Errorf("empty texts similarity = %v, want 0", got)
	}
	if got := Containment(Fingerprint("word"), Fingerprint("word")); got != 1 {
		t.Errorf("one-word containment = %v", got)
	}
	long := text + " " + strings.Repeat("Other sentences about unrelated storage details follow here. ", 1) +
		"Batches are commits and the log records each one with its id and kind."
	short, page := Fingerprint(text), Fingerprint(long)
	if c, j := Containment(short, page), Similarity(short, page); c < 0.8 || c <= j {
		t.Errorf("containment of an excerpt = %.2f (jaccard %.2f), want high and above jaccard", c, j)
	}
	if c := Containment(page, short); c > 0.6 {
		t.Errorf("containment of the page in its excerpt = %.2f, want low", c)
	}
}

func TestSketchText(t *testing.T) {
	s := Fingerprint("Spokes are generated; never edit them by hand.")
	b, err := s.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var got Sketch
	if err := got.UnmarshalText(b); err != nil {
		t.Fatal(err)
	}
	if got != s {
		t.Error("round trip changed the sketch")
	}
	if s.String() != string(b) {
		t.Error("String differs from MarshalText")
	}
	if len(b) > 720 {
		t.Errorf("text form is %d bytes", len(b))
	}
	for _, bad := range []string{"", "minhash0:1:AAAA", "minhash1:x:AAAA", "minhash1:3:AAAA", "minhash1:3", "minhash1:-1:" + strings.Repeat("A", 683)} {
		if err := new(Sketch).UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%.30q) succeeded", bad)
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	text := strings.Repeat("The derived index is keyed by the commit it reflects and updated from the tree diff. ", 60)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Fingerprint(text)
	}
}

func ExampleSimilarity() {
	a := Fingerprint("Backups run nightly at 02:00 UTC and are kept for 35 days.")
	b := Fingerprint("Backups are kept for 35 days and run nightly at 02:00 UTC.")
	fmt.Println(Similarity(a, b) >= DefaultNearDuplicate)
	// Output: true
}

// readTxtar reads a txtar archive ("-- name --" lines introduce files) into
// a map from name to content. It is written out here because the txtar
// packages in go.mod's reach need a go.sum entry this module does not have.
func readTxtar(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	var name string
	var body strings.Builder
	flush := func() {
		if name != "" {
			files[name] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(string(b), "\n") {
		t := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
	return files, nil
}
