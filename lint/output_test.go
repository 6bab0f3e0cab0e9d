package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// nestedReport lints the planted space kept in kb/ of a repository.
func nestedReport(t *testing.T) *lint.Report {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	git(t, root, "init", "-q", "-b", "main")
	dir := filepath.Join(root, "kb")
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plant(t, dir, "testdata/planted.txtar")
	rep, err := lint.Run(ctx, s, lint.Options{Now: now, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Space != "kb" || len(rep.Open()) == 0 {
		t.Fatalf("report: space %q, %d open", rep.Space, len(rep.Open()))
	}
	return rep
}

// TestSARIF checks the log against what SARIF 2.1.0 requires (version,
// runs, tool.driver.name, rule ids, result messages) and what code
// scanning needs: rule levels, a ruleIndex that names the result's rule,
// repository-relative URIs and start lines of at least 1.
func TestSARIF(t *testing.T) {
	rep := nestedReport(t)
	var buf bytes.Buffer
	if err := lint.WriteSARIF(&buf, []*lint.Report{rep}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version *string
		Runs    []struct {
			Tool *struct {
				Driver *struct {
					Name  *string
					Rules []struct {
						ID                   *string
						ShortDescription     *struct{ Text *string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex *int
				Level     string
				Message   *struct{ Text *string }
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation *struct{ URI *string }
						Region           *struct{ StartLine *int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version == nil || *log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log with one run:\n%s", buf.String())
	}
	run := log.Runs[0]
	if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil || *run.Tool.Driver.Name == "" {
		t.Fatal("run.tool.driver.name is required")
	}
	levels := map[string]bool{"error": true, "warning": true, "note": true}
	rules := run.Tool.Driver.Rules
	if len(rules) != len(lint.Rules) {
		t.Errorf("%d rules, want one per check (%d)", len(rules), len(lint.Rules))
	}
	for _, r := range rules {
		if r.ID == nil || *r.ID == "" || r.ShortDescription == nil || r.ShortDescription.Text == nil || !levels[r.DefaultConfiguration.Level] {
			t.Errorf("rule missing required fields: %+v", r)
		}
	}
	if len(run.Results) != len(rep.Open()) {
		t.Errorf("%d results for %d open findings", len(run.Results), len(rep.Open()))
	}
	for i, res := range run.Results {
		f := rep.Open()[i]
		switch {
		case res.Message == nil || res.Message.Text == nil || *res.Message.Text == "":
			t.Errorf("result %d: message.text is required", i)
		case res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(rules) || *rules[*res.RuleIndex].ID != res.RuleID:
			t.Errorf("result %d: ruleIndex does not name rule %s", i, res.RuleID)
		case !levels[res.Level]:
			t.Errorf("result %d: level %q", i, res.Level)
		case len(res.Locations) != 1 || res.Locations[0].PhysicalLocation == nil || res.Locations[0].PhysicalLocation.ArtifactLocation == nil ||
			res.Locations[0].PhysicalLocation.Region == nil || res.Locations[0].PhysicalLocation.Region.StartLine == nil:
			t.Errorf("result %d: no physical location with a region", i)
		case *res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "kb/"+f.Path:
			t.Errorf("result %d: uri %q, want kb/%s", i, *res.Locations[0].PhysicalLocation.ArtifactLocation.URI, f.Path)
		case *res.Locations[0].PhysicalLocation.Region.StartLine != max(f.Line, 1):
			t.Errorf("result %d: startLine %d, want %d", i, *res.Locations[0].PhysicalLocation.Region.StartLine, max(f.Line, 1))
		case res.PartialFingerprints["ptFinding/v1"] != f.ID:
			t.Errorf("result %d: fingerprint %v", i, res.PartialFingerprints)
		}
	}
}

func TestText(t *testing.T) {
	rep := nestedReport(t)
	var buf bytes.Buffer
	if err := lint.WriteText(&buf, []*lint.Report{rep}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"kb/pages/guide.md\n",
		"broken_crossref      link to missing.md: pages/missing.md does not exist",
		"lint team (kb): ",
		"dry run, nothing written",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range rep.Open() {
		if !strings.Contains(out, "  ["+f.ID+"]\n") {
			t.Errorf("finding %s: its id does not end its line:\n%s", f.ID, out)
		}
	}
	if strings.Count(out, "kb/pages/guide.md\n") != 1 {
		t.Errorf("findings of a page are not grouped under one heading:\n%s", out)
	}
}
