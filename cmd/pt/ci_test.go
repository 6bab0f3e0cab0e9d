package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
	"gopkg.in/yaml.v3"
)

// actionlintVersion is the actionlint the workflow is checked with.
const actionlintVersion = "v1.7.12"

// initCI runs pt init --ci kind (and the flags given) in a new directory
// and returns it.
func initCI(t *testing.T, kind string, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	t.Setenv("PT_AUTHOR", "dana")
	if code := run(context.Background(), append([]string{"init", dir, "--ci", kind}, flags...), nil, &out, &errb); code != 0 {
		t.Fatalf("pt init --ci %s: exit %d: %s", kind, code, errb.String())
	}
	return dir
}

// TestCIGitHub checks the workflow pt init --ci github writes with
// actionlint, fetched with go run; without network access to fetch it the
// test is skipped, saying so.
func TestCIGitHub(t *testing.T) {
	dir := initCI(t, "github")
	wf := filepath.Join(dir, filepath.FromSlash(githubWorkflowPath))
	data, err := os.ReadFile(wf)
	if err != nil {
		t.Fatalf("workflow not written: %v", err)
	}
	for _, want := range []string{"schedule:", "go install github.com/ptwiki/pt/cmd/pt@latest", "--format sarif", "--fail-on error", "github/codeql-action/upload-sarif", "security-events: write", "github.event.repository.default_branch"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("workflow lacks %q", want)
		}
	}
	if out, err := exec.Command("git", "-C", dir, "ls-files", githubWorkflowPath).Output(); err != nil || strings.TrimSpace(string(out)) != githubWorkflowPath {
		t.Errorf("workflow not committed in the init batch: %q %v", out, err)
	}
	actionlint(t, dir)
}

// actionlint checks the workflow in dir with actionlint, fetched with go
// run; without network access to fetch it the test is skipped, saying so.
func actionlint(t *testing.T, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: not running actionlint")
	}
	tool := "github.com/rhysd/actionlint/cmd/actionlint@" + actionlintVersion
	probe := exec.Command("go", "run", tool, "-version")
	probe.Dir = dir
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("actionlint %s cannot be fetched or built here (%v); workflow not checked:\n%s", actionlintVersion, err, out)
	}
	lintCmd := exec.Command("go", "run", tool, "-no-color", githubWorkflowPath)
	lintCmd.Dir = dir
	if out, err := lintCmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint rejects the workflow: %v\n%s", err, out)
	}
}

// TestCIGitLab checks that the GitLab job is YAML with one job that
// installs pt and lints with SARIF output.
func TestCIGitLab(t *testing.T) {
	dir := initCI(t, "gitlab")
	data, err := os.ReadFile(filepath.Join(dir, gitlabCIPath))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]struct {
		Image     string
		Script    []string
		Rules     []map[string]string
		Artifacts struct {
			When  string
			Paths []string
		}
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	job, ok := doc["pt-lint"]
	if !ok || job.Image == "" || len(job.Rules) == 0 {
		t.Fatalf("no pt-lint job with an image and rules: %+v", doc)
	}
	script := strings.Join(job.Script, "\n")
	for _, want := range []string{"go install github.com/ptwiki/pt/cmd/pt@latest", "--format sarif --fail-on error > pt-lint.sarif"} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	if job.Artifacts.When != "always" || len(job.Artifacts.Paths) != 1 || job.Artifacts.Paths[0] != "pt-lint.sarif" {
		t.Errorf("artifacts: %+v", job.Artifacts)
	}
}

// TestCIGitHubCommit checks the job of pt init --ci github --commit: the
// job that pushes may write contents and nothing else, the one that
// uploads SARIF may write security events and not the code, runs never
// overlap, and it curates between the reaper and lint. ci_commit_job.txtar
// runs its commands.
func TestCIGitHubCommit(t *testing.T) {
	dir := initCI(t, "github", "--commit")
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(githubWorkflowPath)))
	if err != nil {
		t.Fatalf("workflow not written: %v", err)
	}
	var wf struct {
		Permissions map[string]string
		Concurrency struct {
			Group            string
			CancelInProgress bool `yaml:"cancel-in-progress"`
		}
		Jobs map[string]struct {
			Needs       string
			Permissions map[string]string
			Steps       []struct{ Run, Uses string }
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	if len(wf.Permissions) != 0 || wf.Concurrency.Group == "" || wf.Concurrency.CancelInProgress {
		t.Errorf("workflow permissions %v, concurrency %+v: want none at the top and one run at a time, never cancelled", wf.Permissions, wf.Concurrency)
	}
	maintain, scan := wf.Jobs["maintain"], wf.Jobs["code-scanning"]
	if d := cmp.Diff(map[string]string{"contents": "write"}, maintain.Permissions); d != "" {
		t.Errorf("maintain job permissions (-want +got):\n%s", d)
	}
	if scan.Needs != "maintain" || scan.Permissions["security-events"] != "write" || scan.Permissions["contents"] != "read" {
		t.Errorf("code-scanning job: %+v", scan)
	}
	var runs []string
	for _, st := range maintain.Steps {
		runs = append(runs, st.Run)
	}
	script := strings.Join(runs, "\n")
	for _, want := range []string{"reap", "pt lint --all\n", " sync", "--dry-run --format sarif --fail-on error > pt-lint.sarif"} {
		if !strings.Contains(script, want) {
			t.Errorf("maintain job lacks %q:\n%s", want, script)
		}
	}
	if strings.Index(script, " sync") > strings.Index(script, "--fail-on error") {
		t.Error("the job fails on findings before it pushes its batches")
	}
	inOrder(t, script, " reap", " curate", "pt lint --all\n")
	actionlint(t, dir)
}

// TestCIGitLabCommit checks the GitLab job of --commit: one run at a
// time, never started by its own push, pushing with a token of its own.
func TestCIGitLabCommit(t *testing.T) {
	dir := initCI(t, "gitlab", "--commit")
	data, err := os.ReadFile(filepath.Join(dir, gitlabCIPath))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]struct {
		ResourceGroup string `yaml:"resource_group"`
		Rules         []map[string]string
		Script        []string
		Variables     map[string]string
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	job, ok := doc["pt-maintain"]
	if !ok || job.ResourceGroup == "" {
		t.Fatalf("no pt-maintain job in a resource group: %+v", doc)
	}
	for _, r := range job.Rules {
		if strings.Contains(r["if"], "CI_COMMIT_BRANCH") || strings.Contains(r["if"], "push") {
			t.Errorf("the job runs on pushes, its own included: %v", r)
		}
	}
	script := strings.Join(job.Script, "\n")
	for _, want := range []string{"reap", "pt lint --all\n", "sync --remote \"$CI_SERVER_URL/$CI_PROJECT_PATH.git\"", "--fail-on error > pt-lint.sarif"} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	if !bytes.Contains(data, []byte("PT_GIT_TOKEN")) {
		t.Errorf("the job says nothing of its token:\n%s", data)
	}
	inOrder(t, script, " reap", " curate", "pt lint --all\n")
}

// --commit names what the job does on a CI host: alone it is a usage
// error, and nothing is created.
func TestCICommitAlone(t *testing.T) {
	var out, errb bytes.Buffer
	dir := filepath.Join(t.TempDir(), "kb")
	if code := run(context.Background(), []string{"init", dir, "--commit"}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--commit needs --ci") {
		t.Errorf("exit %d, %q; want a usage error", code, errb.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused init left %s: %v", dir, err)
	}
}

func TestCIUnknown(t *testing.T) {
	var out, errb bytes.Buffer
	dir := filepath.Join(t.TempDir(), "kb")
	if code := run(context.Background(), []string{"init", dir, "--ci", "jenkins"}, nil, &out, &errb); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if _, err := os.Stat(dir); err == nil {
		if _, err := os.Stat(filepath.Join(dir, "kb.yaml")); err == nil {
			t.Error("unknown --ci still created a space")
		}
	}
}

// A space nested in a repository gets its CI job at the repository's root,
// in the same commit, since hosts read it only there. A second nested
// space leaves an identical job as it is; one that was edited is not
// overwritten, and the refused init leaves the repository as it was.
func TestCINestedSpace(t *testing.T) {
	root := t.TempDir()
	gitOut(t, root, "init", "-q")
	gitOut(t, root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "root")
	t.Setenv("PT_AUTHOR", "dana")
	initIn := func(sub string) (int, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"init", filepath.Join(root, sub), "--ci", "github"}, nil, &out, &errb)
		return code, errb.String()
	}
	if code, errs := initIn("team/kb"); code != 0 {
		t.Fatalf("pt init --ci github: exit %d: %s", code, errs)
	}
	files := gitOut(t, root, "show", "--name-only", "--format=", "HEAD")
	for _, want := range []string{githubWorkflowPath, "team/kb/kb.yaml"} {
		if !strings.Contains(files, want) {
			t.Errorf("init commit lacks %s:\n%s", want, files)
		}
	}
	if strings.Contains(files, "team/kb/.github") {
		t.Errorf("the job was written inside the space:\n%s", files)
	}
	if code, errs := initIn("ops"); code != 0 {
		t.Fatalf("second nested space: exit %d: %s", code, errs)
	}
	if got := gitOut(t, root, "ls-files", ".github"); strings.TrimSpace(got) != githubWorkflowPath {
		t.Errorf("jobs at the root: %q", got)
	}

	wf := filepath.Join(root, filepath.FromSlash(githubWorkflowPath))
	if err := os.WriteFile(wf, []byte("# our own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "own workflow")
	head := gitOut(t, root, "rev-parse", "HEAD")
	code, errs := initIn("docs/kb")
	if code == 0 || !strings.Contains(errs, "already exists") {
		t.Fatalf("edited job: exit %d, %q; want a refusal", code, errs)
	}
	if got := gitOut(t, root, "rev-parse", "HEAD"); got != head {
		t.Error("a refused init moved HEAD")
	}
	if _, err := os.Stat(filepath.Join(root, "docs")); !os.IsNotExist(err) {
		t.Errorf("a refused init left its directory behind: %v", err)
	}
	if data, _ := os.ReadFile(wf); string(data) != "# our own\n" {
		t.Errorf("the edited job was overwritten: %q", data)
	}
}

// ciJob writes the shell a CI job runs, read from the job file pt init
// wrote, so that a script can run the job's own commands:
//
//	cijob github|gitlab JOBFILE OUT
//
// For GitHub it is the run steps of the maintain job, in order; for GitLab
// the pt-maintain job's script lines. Either stops at the first failing
// command, as the runners do. Installing pt becomes a check that pt is on
// PATH: the pt run is the one under test.
func ciJob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: cijob github|gitlab JOBFILE OUT")
	}
	var lines []string
	data := []byte(ts.ReadFile(args[1]))
	switch args[0] {
	case "github":
		var wf struct {
			Jobs map[string]struct {
				Steps []struct{ Run string }
			}
		}
		ts.Check(yaml.Unmarshal(data, &wf))
		for _, st := range wf.Jobs["maintain"].Steps {
			if st.Run != "" {
				lines = append(lines, st.Run)
			}
		}
	case "gitlab":
		var doc map[string]struct{ Script []string }
		ts.Check(yaml.Unmarshal(data, &doc))
		lines = doc["pt-maintain"].Script
	default:
		ts.Fatalf("cijob: unknown host %q", args[0])
	}
	if len(lines) == 0 {
		ts.Fatalf("cijob: no commands in %s", args[1])
	}
	for i, l := range lines {
		if l == "go install github.com/ptwiki/pt/cmd/pt@latest" {
			lines[i] = "command -v pt >/dev/null"
		}
	}
	script := "set -e\n" + strings.Join(lines, "\n") + "\n"
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(script), 0o644))
}

// inOrder reports the steps of a job script that are missing or out of
// order.
func inOrder(t *testing.T, script string, steps ...string) {
	t.Helper()
	at := -1
	for _, st := range steps {
		i := strings.Index(script, st)
		if i <= at {
			t.Errorf("%q missing or out of order in:\n%s", st, script)
			return
		}
		at = i
	}
}
