package lint_test

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	Values []string `json:"values"`
	Term   string   `json:"term"`
	Split  string   `json:"split"`
}

// matches reports whether a finding on the planted corpus is the plant.
func (m plantRow) matches(f lint.Finding) bool {
	if f.Check != m.Kind {
		return false
	}
	switch m.Kind {
	case lint.CheckContradiction:
		if len(f.Evidence) != 2 || len(m.Pages) != 2 {
			return false
		}
		a, b := f.Evidence[0], f.Evidence[1]
		if strings.TrimPrefix(a.Path, "sources/") != m.Pages[0] {
			a, b = b, a
		}
		return m.cites(0, a) && m.cites(1, b)
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

// cites reports whether a contradiction's evidence is the plant's i-th
// statement: on its page, and on its line (or one beside it) or stating
// its value (the same value said again further down the page).
func (m plantRow) cites(i int, e lint.Evidence) bool {
	if strings.TrimPrefix(e.Path, "sources/") != m.Pages[i] {
		return false
	}
	if len(m.Lines) > i && e.Line-m.Lines[i] >= -1 && e.Line-m.Lines[i] <= 1 {
		return true
	}
	return len(m.Values) > i && strings.Contains(strings.ToLower(e.Text), strings.ToLower(m.Values[i]))
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

func termFold(t string) string {
	t = strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(t), " "))
	return strings.TrimSuffix(t, "s")
}

// evalCorpora are the shared corpora a planted-fault data folder may name.
var evalCorpora = []string{"gowiki", "k8s-community", "playbook"}

// TestCurateCheckHalf curates the shared corpora with the planted faults
// of testdata/curation (and without them) and holds the check half of the
// plants to the floors docs/curation.md reports. A finding that matches
// no plant counts against precision unless the unplanted corpus has it
// too (a fault the corpus already had; docs/curation.md reports how many
// of those are real).
//
// PT_EVAL_SPLIT=tune|check|all picks the half measured (floors hold only
// on the check half of testdata/curation); PT_EVAL_DATA=dir reads another
// folder of the same format (manifest.jsonl, <corpus>/overlay);
// PT_EVAL_SHOW=1 lists the misses and the unmatched findings.
func TestCurateCheckHalf(t *testing.T) {
	if os.Getenv("PT_EVAL") == "" {
		t.Skip("curating the corpora twice takes a minute or more: set PT_EVAL=1 to hold the check half to its floors")
	}
	root := spacegen.Corpora()
	if _, err := os.Stat(filepath.Join(root, "k8s-community")); root == "" || err != nil {
		t.Skip("the shared corpora are not here (set PT_CORPORA to the folder holding gowiki and k8s-community)")
	}
	data := cmp.Or(os.Getenv("PT_EVAL_DATA"), filepath.Join("testdata", "curation"))
	half := cmp.Or(os.Getenv("PT_EVAL_SPLIT"), "check")
	if half != "tune" && half != "check" && half != "all" {
		t.Fatalf("PT_EVAL_SPLIT=%s: want tune, check or all", half)
	}
	rows := readPlants(t, filepath.Join(data, "manifest.jsonl"))
	show := os.Getenv("PT_EVAL_SHOW") != ""
	score := scorePlants(t, root, data, rows, half, show)
	floors := map[string]struct{ recall, precision float64 }{
		lint.CheckContradiction:  {0.4, 0.75},
		lint.CheckStale:          {0.9, 0.9},
		lint.CheckMissingConcept: {0.3, 0.7},
		lint.CheckMerge:          {0.8, 0.9},
	}
	held := half == "check" && os.Getenv("PT_EVAL_DATA") == ""
	for _, kind := range []string{lint.CheckContradiction, lint.CheckStale, lint.CheckMissingConcept, lint.CheckMerge} {
		floor := floors[kind]
		plants, found := 0, 0
		for _, r := range rows {
			if r.Kind == kind && r.inHalf(half) && !r.Decoy {
				plants++
				if score.hit[r.ID] {
					found++
				} else if show {
					t.Logf("missed: %s %v", r.ID, r.Pages)
				}
			}
		}
		recall := float64(found) / float64(max(plants, 1))
		precision := 1.0
		if tp, fp := score.tp[kind], score.fp[kind]; tp+fp > 0 {
			precision = float64(tp) / float64(tp+fp)
		}
		t.Logf("%-16s recall %d/%d = %.2f  precision %d/%d = %.2f", kind, found, plants, recall, score.tp[kind], score.tp[kind]+score.fp[kind], precision)
		if held && (recall < floor.recall || precision < floor.precision) {
			t.Errorf("%s: recall %.2f (floor %.2f), precision %.2f (floor %.2f)", kind, recall, floor.recall, precision, floor.precision)
		}
	}
}

// inHalf reports whether a row belongs to the half measured.
func (m plantRow) inHalf(half string) bool {
	return half == "all" || m.Split == half
}

// readPlants reads a manifest.jsonl and checks that it names only the
// shared corpora.
func readPlants(t *testing.T, file string) []plantRow {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rows []plantRow
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r plantRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !slices.Contains(evalCorpora, r.Corpus) {
			t.Fatalf("%s: %s names corpus %q, not one of %v", file, r.ID, r.Corpus, evalCorpora)
		}
		rows = append(rows, r)
	}
	return rows
}

// plantScore is what one evaluation counted: findings that are plants of
// the half (tp), findings that match nothing planted and that the
// unplanted corpus lacks (fp), by check, and the plants found.
type plantScore struct {
	tp, fp map[string]int
	hit    map[string]bool
}

// scorePlants curates each corpus the rows name, unplanted and with its
// overlay from data, and scores the planted copy's findings.
func scorePlants(t *testing.T, root, data string, rows []plantRow, half string, show bool) plantScore {
	t.Helper()
	sc := plantScore{tp: map[string]int{}, fp: map[string]int{}, hit: map[string]bool{}}
	for _, corpus := range evalCorpora {
		if !slices.ContainsFunc(rows, func(r plantRow) bool { return r.Corpus == corpus }) {
			continue
		}
		dir := filepath.Join(root, corpus)
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("corpus %s: %v", corpus, err)
		}
		before := map[string]bool{}
		for _, f := range curateDir(t, dir, "") {
			before[f.ID] = true
		}
		for _, f := range curateDir(t, dir, filepath.Join(data, corpus, "overlay")) {
			var mine, other bool
			var decoy string
			for _, r := range rows {
				if r.Corpus != corpus || !r.matches(f) {
					continue
				}
				switch {
				case r.inHalf(half) && !r.Decoy:
					mine = true
					sc.hit[r.ID] = true
				case !r.inHalf(half):
					other = true
				default:
					decoy = r.ID
				}
			}
			switch {
			case mine:
				sc.tp[f.Check]++
			case other || before[f.ID]:
			default:
				sc.fp[f.Check]++
				if show && decoy != "" {
					t.Logf("decoy %s: %s %s:%d %s", decoy, f.Check, f.Path, f.Line, clipMsg(f.Message))
				} else if show {
					t.Logf("unmatched: %s %s:%d %s", f.Check, f.Path, f.Line, clipMsg(f.Message))
				}
			}
		}
	}
	return sc
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
