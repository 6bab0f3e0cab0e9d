package lint_test

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// plantRow is one line of testdata/curation/manifest.jsonl: a fault
// planted in a copy of a corpus, or a look-alike decoy.
type plantRow struct {
	ID     string   `json:"id"`
	Corpus string   `json:"corpus"`
	Kind   string   `json:"kind"`
	Decoy  bool     `json:"decoy"`
	Pages  []string `json:"pages"`
	Lines  []int    `json:"lines"`
	Term   string   `json:"term"`
	Split  string   `json:"split"`
}

// matches reports whether a finding on the planted corpus is the plant.
func (m plantRow) matches(f lint.Finding) bool {
	if f.Check != m.Kind {
		return false
	}
	var ps []string
	for _, e := range f.Evidence {
		ps = append(ps, strings.TrimPrefix(e.Path, "sources/"))
	}
	switch m.Kind {
	case lint.CheckContradiction:
		return len(ps) == 2 && len(m.Pages) == 2 && ((ps[0] == m.Pages[0] && ps[1] == m.Pages[1]) || (ps[0] == m.Pages[1] && ps[1] == m.Pages[0]))
	case lint.CheckMerge:
		a, b := strings.TrimPrefix(f.Path, "sources/"), strings.TrimPrefix(f.Target, "sources/")
		return (a == m.Pages[0] && b == m.Pages[1]) || (a == m.Pages[1] && b == m.Pages[0])
	case lint.CheckStale:
		d := f.Line - m.Lines[0]
		return strings.TrimPrefix(f.Path, "sources/") == m.Pages[0] && d >= -1 && d <= 1
	case lint.CheckMissingConcept:
		return termFold(f.Target) == termFold(m.Term)
	}
	return false
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

func termFold(t string) string {
	t = strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(t), " "))
	return strings.TrimSuffix(t, "s")
}

// TestCurateCheckHalf curates both shared corpora with the planted faults
// of testdata/curation (and without them) and holds the check half of the
// plants to the floors measured when the rules were tuned on the other
// half (docs/curation.md). A finding that matches no plant counts against
// precision unless the unplanted corpus has it too (a fault the corpus
// already had; docs/curation.md reports how many of those are real).
func TestCurateCheckHalf(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("curating both corpora twice takes a minute or more: set PT_EVAL=1 to hold the check half to its floors")
	}
	root := spacegen.Corpora()
	if _, err := os.Stat(filepath.Join(root, "k8s-community")); root == "" || err != nil {
		t.Skip("the shared corpora are not here (set PT_CORPORA to the folder holding gowiki and k8s-community)")
	}
	data, err := os.ReadFile("testdata/curation/manifest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rows []plantRow
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r plantRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	// PT_EVAL_SPLIT=tune measures the half the rules are tuned on,
	// without floors.
	half := cmp.Or(os.Getenv("PT_EVAL_SPLIT"), "check")
	tp, fp, hit := map[string]int{}, map[string]int{}, map[string]bool{}
	for _, corpus := range []string{"gowiki", "k8s-community"} {
		dir := filepath.Join(root, corpus)
		before := map[string]bool{}
		for _, f := range curateDir(t, dir, "") {
			before[f.ID] = true
		}
		after := curateDir(t, dir, filepath.Join("testdata", "curation", corpus, "overlay"))
		for _, f := range after {
			var mine, other bool
			for _, r := range rows {
				if r.Corpus != corpus || !r.matches(f) {
					continue
				}
				switch {
				case r.Split == half && !r.Decoy:
					mine = true
					hit[r.ID] = true
				case r.Split != half:
					other = true
				}
			}
			switch {
			case mine:
				tp[f.Check]++
			case other || before[f.ID]:
			default:
				fp[f.Check]++
				if os.Getenv("PT_EVAL_SHOW") != "" && half != "check" {
					t.Logf("unmatched: %s %s:%d %s", f.Check, f.Path, f.Line, clipMsg(f.Message))
				}
			}
		}
	}
	floors := map[string]struct{ recall, precision float64 }{
		lint.CheckContradiction:  {0.15, 0.6},
		lint.CheckStale:          {0.9, 0.9},
		lint.CheckMissingConcept: {0.3, 0.7},
		lint.CheckMerge:          {0.8, 0.9},
	}
	for kind, floor := range floors {
		plants, found := 0, 0
		for _, r := range rows {
			if r.Kind == kind && r.Split == half && !r.Decoy {
				plants++
				if hit[r.ID] {
					found++
				} else if os.Getenv("PT_EVAL_SHOW") != "" && half != "check" {
					t.Logf("missed: %s", r.ID)
				}
			}
		}
		recall := float64(found) / float64(plants)
		precision := 1.0
		if tp[kind]+fp[kind] > 0 {
			precision = float64(tp[kind]) / float64(tp[kind]+fp[kind])
		}
		t.Logf("%-16s recall %d/%d = %.2f  precision %d/%d = %.2f", kind, found, plants, recall, tp[kind], tp[kind]+fp[kind], precision)
		if half == "check" && (recall < floor.recall || precision < floor.precision) {
			t.Errorf("%s: recall %.2f (floor %.2f), precision %.2f (floor %.2f)", kind, recall, floor.recall, precision, floor.precision)
		}
	}
}

// curateDir curates a corpus (with an overlay, or none for "") at the
// reference date of the plants and returns its open findings.
func curateDir(t *testing.T, dir, overlay string) []lint.Finding {
	t.Helper()
	s := filesSpace(t, corpusFiles(t, dir, overlay), "sources/")
	rep, err := lint.Curate(context.Background(), s, lint.CurateOptions{Now: curateWhen, DryRun: true, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Open()
}

func clipMsg(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}
