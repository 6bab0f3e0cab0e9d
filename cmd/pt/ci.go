package main

import (
	"errors"
	"fmt"
)

// CI job files written by pt init --ci, at paths relative to the
// repository's root, the only place hosts read them: for a space nested in
// a repository, the init commit writes them outside the space's folder.
// The job lints every space of the repository (--all).
const (
	githubWorkflowPath = ".github/workflows/pt-lint.yml"
	gitlabCIPath       = ".gitlab-ci.yml"
)

// githubWorkflow lints every space of the repository daily and on pushes
// to the default branch (whatever it is called: the job's condition asks
// GitHub, as the GitLab job does with $CI_DEFAULT_BRANCH), uploads the open findings to code scanning as SARIF, and fails
// on error findings. The upload runs even when lint fails, so the alerts
// show why. It lints with --dry-run: a CI checkout is no place to commit.
const githubWorkflow = `# Written by pt init --ci github: lint the knowledge base on a schedule.
name: pt lint

on:
  schedule:
    - cron: "23 5 * * *"
  push:
  workflow_dispatch:

permissions:
  contents: read
  security-events: write

jobs:
  lint:
    if: github.event_name != 'push' || github.ref_name == github.event.repository.default_branch
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - name: Install pt
        run: go install github.com/ptwiki/pt/cmd/pt@latest
      - name: Lint
        run: pt lint --all --dry-run --format sarif --fail-on error > pt-lint.sarif
      - name: Upload findings to code scanning
        if: ${{ always() && hashFiles('pt-lint.sarif') != '' }}
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: pt-lint.sarif
          category: pt-lint
`

// gitlabCI runs the same lint in GitLab CI. GitLab takes schedules from
// its settings (CI/CD > Schedules), not from the file, so the job runs on
// scheduled and manual pipelines and on pushes to the default branch; the
// SARIF log is kept as an artifact and the text report goes to the job log.
const gitlabCI = `# Written by pt init --ci gitlab: lint the knowledge base.
# Add a schedule under CI/CD > Schedules to run it daily.
pt-lint:
  image: golang:1
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
    - if: $CI_PIPELINE_SOURCE == "web"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - go install github.com/ptwiki/pt/cmd/pt@latest
    - pt lint --all --dry-run
    - pt lint --all --dry-run --format sarif --fail-on error > pt-lint.sarif
  artifacts:
    when: always
    paths:
      - pt-lint.sarif
`

// ciJobFiles returns the files pt init --ci writes into the first batch:
// the lint job, or with commit the job that commits and pushes (cicommit.go).
func ciJobFiles(kind string, commit bool) (map[string][]byte, error) {
	switch {
	case kind == "" && commit:
		return nil, errors.New("--commit needs --ci github or --ci gitlab")
	case kind == "":
		return nil, nil
	case kind == "github" && commit:
		return map[string][]byte{githubWorkflowPath: []byte(githubCommitWorkflow)}, nil
	case kind == "github":
		return map[string][]byte{githubWorkflowPath: []byte(githubWorkflow)}, nil
	case kind == "gitlab" && commit:
		return map[string][]byte{gitlabCIPath: []byte(gitlabCommitCI)}, nil
	case kind == "gitlab":
		return map[string][]byte{gitlabCIPath: []byte(gitlabCI)}, nil
	}
	return nil, fmt.Errorf("--ci %s: unknown CI host (github or gitlab)", kind)
}
