package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionlintVersion is the actionlint the workflow is checked with.
const actionlintVersion = "v1.7.12"

// initCI runs pt init --ci kind in a new directory and returns it.
func initCI(t *testing.T, kind string) string {
	t.Helper()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	t.Setenv("PT_AUTHOR", "dana")
	if code := run(context.Background(), []string{"init", dir, "--ci", kind}, nil, &out, &errb); code != 0 {
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
