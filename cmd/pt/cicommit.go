package main

// The jobs pt init --ci github|gitlab --commit writes, for teams with no
// server running pt cron: the job does the maintenance for real. It reaps
// every space, curates every space, lints every space (each committing
// findings.json, stale marks and the log entries), pushes those batches
// with pt sync (which rebuilds them on top of anything pushed meanwhile
// and never forces), and still reports the findings as SARIF. Curation
// follows the reaper, so that the pages it just expired are not curated.
// Runs are serialised (a concurrency group on GitHub, a resource
// group on GitLab) so that two never race on the branch.

// ptSpaces lists the space folders of the repository (every kb.yaml at
// HEAD, as pt lint --all finds them), one per line.
const ptSpaces = `git ls-files ':(glob)**/kb.yaml' | xargs -r -n1 dirname`

// githubCommitWorkflow is the --commit job for GitHub Actions. The job
// that pushes holds contents: write and nothing else; a second job, with
// security-events: write and no write access to the code, uploads the
// SARIF log the first one kept as an artifact. Pushes made with the
// workflow's own token start no new run.
const githubCommitWorkflow = `# Written by pt init --ci github --commit: maintain the knowledge base on a
# schedule with no server. The reaper, curation and lint commit their batches
# (findings, stale marks, expiries, log entries) and pt sync pushes them.
name: pt maintain

on:
  schedule:
    - cron: "23 5 * * *"
  push:
  workflow_dispatch:

permissions: {}

concurrency:
  group: pt-maintain
  cancel-in-progress: false

jobs:
  maintain:
    if: github.event_name != 'push' || github.ref_name == github.event.repository.default_branch
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-go@v5
        with:
          go-version: stable
      - name: Install pt
        run: go install github.com/ptwiki/pt/cmd/pt@latest
      - name: Reap
        run: |
          ` + ptSpaces + ` | while read -r kb; do
            pt --kb "$kb" reap
          done
      - name: Curate
        run: |
          ` + ptSpaces + ` | while read -r kb; do
            pt --kb "$kb" curate
          done
      - name: Lint
        run: pt lint --all
      - name: Push the batches
        env:
          PT_GIT_TOKEN: ${{ github.token }}
        run: pt --kb "$(` + ptSpaces + ` | head -n 1)" sync
      - name: Report findings
        run: pt lint --all --dry-run --format sarif --fail-on error > pt-lint.sarif
      - name: Keep the SARIF log
        if: ${{ !cancelled() && hashFiles('pt-lint.sarif') != '' }}
        uses: actions/upload-artifact@v4
        with:
          name: pt-lint-sarif
          path: pt-lint.sarif

  code-scanning:
    needs: maintain
    if: ${{ !cancelled() && needs.maintain.result != 'skipped' }}
    runs-on: ubuntu-latest
    permissions:
      actions: read
      contents: read
      security-events: write
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: pt-lint-sarif
      - name: Upload findings to code scanning
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: pt-lint.sarif
          category: pt-lint
`

// gitlabCommitCI is the --commit job for GitLab CI. It runs on scheduled
// and manual pipelines only, so its own push starts no run of it; the
// resource group runs one at a time. GitLab's job token cannot push: the
// job pushes with a project access token in PT_GIT_TOKEN, whose only
// scope is write_repository.
const gitlabCommitCI = `# Written by pt init --ci gitlab --commit: maintain the knowledge base with no
# server. The reaper, curation and lint commit their batches (findings, stale
# marks, expiries, log entries) and pt sync pushes them.
# Add a schedule under CI/CD > Schedules to run it daily, and a masked CI/CD
# variable PT_GIT_TOKEN: a project access token with the write_repository
# scope (role Developer, or Maintainer on a protected branch).
pt-maintain:
  image: golang:1
  resource_group: pt-maintain
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
    - if: $CI_PIPELINE_SOURCE == "web"
  variables:
    GIT_DEPTH: "0"
    PT_GIT_USER: oauth2
  script:
    - go install github.com/ptwiki/pt/cmd/pt@latest
    - ` + ptSpaces + ` | while read -r kb; do pt --kb "$kb" reap; done
    - ` + ptSpaces + ` | while read -r kb; do pt --kb "$kb" curate; done
    - pt lint --all
    - pt --kb "$(` + ptSpaces + ` | head -n 1)" sync --remote "$CI_SERVER_URL/$CI_PROJECT_PATH.git"
    - pt lint --all --dry-run --format sarif --fail-on error > pt-lint.sarif
  artifacts:
    when: always
    paths:
      - pt-lint.sarif
`
