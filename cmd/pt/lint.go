package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newLintCmd) }

func newLintCmd(e *env) *cobra.Command {
	var all, dryRun bool
	var format, failOn, nowFlag string
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "check the space (orphans, broken links, provenance drift, expiry, frontmatter) and commit the findings",
		Long: "lint runs pt's mechanical checks over the space at HEAD and commits findings.json as one lint batch\n" +
			"with a log entry (no commit when nothing changed). It never deletes or rewrites a page body; with\n" +
			"kb.yaml lint.stale_on_drift (on by default) it marks agent-owned pages whose sources drifted stale.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, threshold, now, err := findingFlags(e, format, failOn, nowFlag)
			if err != nil {
				return err
			}
			opts := lint.Options{DryRun: dryRun, Author: e.identity(), Now: now}
			dirs, err := lintDirs(e, all)
			if err != nil {
				return err
			}
			reports, err := lintSpaces(e, dirs, opts)
			if err != nil {
				return err
			}
			if err := writeLintReports(e, format, all, reports); err != nil {
				return err
			}
			for _, r := range reports {
				for _, f := range r.Open() {
					if threshold > 0 && lint.SeverityRank(f.Severity) >= threshold {
						return exitError{code: exitFailure}
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "lint every space of the repository (every kb.yaml at HEAD), one lint batch each")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check and report, but commit nothing (CI, read-only checkouts)")
	cmd.Flags().StringVar(&format, "format", "text", "output: text, json or sarif")
	cmd.Flags().StringVar(&failOn, "fail-on", "none", "exit 1 when an open finding is at least this severe: error, warning, note or none")
	cmd.Flags().StringVar(&nowFlag, "now", "", "the time to lint at (RFC 3339 or YYYY-MM-DD; default now): expiry and first/last seen")
	return cmd
}

// lintDirs is the one space of the command, or with --all every space of
// the repository that holds it.
func lintDirs(e *env, all bool) ([]string, error) {
	if !all {
		dir, err := e.spaceDir()
		if err != nil {
			return nil, err
		}
		return []string{dir}, nil
	}
	start := e.kb
	if start == "" {
		start = os.Getenv("PT_KB")
	}
	if start == "" {
		start = "."
	}
	dirs, err := wiki.SpaceDirs(e.ctx, start)
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, errors.New("lint --all: no kb.yaml committed in this repository")
	}
	return dirs, nil
}

// lintSpaces lints each space. Every space is opened and checked before
// any is committed, so that a space lint cannot read (a bad kb.yaml or
// findings.json) leaves the repository as it was, not half linted.
func lintSpaces(e *env, dirs []string, opts lint.Options) ([]*lint.Report, error) {
	var prepared []*lint.Prepared
	for _, dir := range dirs {
		s, err := e.openAt(e.ctx, dir)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		p, err := lint.Prepare(e.ctx, s, opts)
		if err != nil {
			return nil, err
		}
		prepared = append(prepared, p)
	}
	var reports []*lint.Report
	for _, p := range prepared {
		rep, err := p.Commit(e.ctx)
		if err != nil {
			return nil, err
		}
		reports = append(reports, rep)
	}
	return reports, nil
}

// writeLintReports prints the reports: with --all, JSON is a list of reports.
func writeLintReports(e *env, format string, all bool, reports []*lint.Report) error {
	switch format {
	case "sarif":
		return lint.WriteSARIF(e.stdout, reports)
	case "json":
		e.json = true
		if all {
			return e.emit(reports, nil)
		}
		return e.emit(reports[0], nil)
	}
	return lint.WriteText(inertWriter{e.stdout}, reports)
}

// parseLintNow reads a --now flag: an RFC 3339 time or a date (midnight UTC).
func parseLintNow(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--now %q: use RFC 3339 (2027-03-01T12:00:00Z) or a date (2027-03-01)", s)
}

// findingFlags checks the flags lint and curate share: the output format
// (json under --json), the --fail-on threshold (0 for none) and --now (zero
// for the space's clock).
func findingFlags(e *env, format, failOn, nowFlag string) (string, int, time.Time, error) {
	if e.json {
		format = "json"
	}
	switch format {
	case "text", "json", "sarif":
	default:
		return "", 0, time.Time{}, usageError{fmt.Errorf("--format %s: use text, json or sarif", format)}
	}
	threshold := 0
	if failOn != "none" {
		if threshold = lint.SeverityRank(failOn); threshold == 0 {
			return "", 0, time.Time{}, usageError{fmt.Errorf("--fail-on %s: use error, warning, note or none", failOn)}
		}
	}
	var now time.Time
	if nowFlag != "" {
		t, err := parseLintNow(nowFlag)
		if err != nil {
			return "", 0, time.Time{}, usageError{err}
		}
		now = t
	}
	return format, threshold, now, nil
}
