package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newCronCmd) }

// reapJob is the TTL reaper as pt cron runs it. While it is nil, pt cron
// says so and schedules lint only.
var reapJob func(ctx context.Context, s *wiki.Space, now time.Time) error

// cronParser reads kb.yaml and flag schedules: five-field cron specs, an
// optional leading seconds field, and descriptors (@daily, @every 2s).
var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// cronAuthor is who scheduled lint batches are by: automation, not the
// person who started the process.
var cronAuthor = wiki.Author{Name: "pt cron", Kind: content.AuthorAgent}

func newCronCmd(e *env) *cobra.Command {
	var lintSpec, reapSpec, syncSpec, curateSpec string
	var stopTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "cron",
		Short: "run lint and the reaper on the schedules in kb.yaml until stopped",
		Long: "cron runs lint (and the TTL reaper) on the schedules of kb.yaml (lint.schedule, reap.schedule;\n" +
			"default @daily) or those given: cron specs with optional seconds, or descriptors like @hourly and\n" +
			"'@every 10m'; 'off' disables a job. A run that is still going when the next is due is skipped; a\n" +
			"failing run is logged and the schedule goes on. SIGINT or SIGTERM stops it, waiting for a running\n" +
			"job up to --stop-timeout.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := e.spaceDir()
			if err != nil {
				return err
			}
			s, err := e.openAt(e.ctx, dir)
			if err != nil {
				return err
			}
			cfg := s.Config()
			s.Close()
			specs := cronSpecs{lint: lintSpec, reap: reapSpec, sync: syncSpec, curate: curateSpec}
			if curateSpec == "" {
				specs.curate = "off"
				if cfg.Curate.Schedule != "" {
					specs.curate, specs.curateFrom = cfg.Curate.Schedule, configPath(dir)+": curate.schedule"
				}
			}
			if lintSpec == "" {
				specs.lint = orDefault(cfg.Lint.Schedule)
				if cfg.Lint.Schedule != "" {
					specs.lintFrom = configPath(dir) + ": lint.schedule"
				}
			}
			if reapSpec == "" {
				specs.reap = orDefault(cfg.Reap.Schedule)
				if cfg.Reap.Schedule != "" {
					specs.reapFrom = configPath(dir) + ": reap.schedule"
				}
			}
			if syncSpec == "" {
				specs.sync = "off"
				if cfg.Remote != "" {
					specs.sync = defaultSyncSpec
				}
			}
			ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runCron(ctx, e, dir, specs, stopTimeout)
		},
	}
	cmd.Flags().StringVar(&lintSpec, "lint", "", "lint schedule (default: kb.yaml lint.schedule, else @daily; 'off' to disable)")
	cmd.Flags().StringVar(&reapSpec, "reap", "", "reap schedule (default: kb.yaml reap.schedule, else @daily; 'off' to disable)")
	cmd.Flags().StringVar(&syncSpec, "sync", "", "sync schedule: pull and push the space's remote (default: "+defaultSyncSpec+" when kb.yaml names a remote, else off)")
	cmd.Flags().StringVar(&curateSpec, "curate", "", "curate schedule (default: kb.yaml curate.schedule, else off)")
	cmd.Flags().DurationVar(&stopTimeout, "stop-timeout", 30*time.Second, "how long to wait for a running job when stopping")
	return cmd
}

// configPath names the space's kb.yaml as the user can find it: relative
// to the working directory when it is below it.
func configPath(dir string) string {
	p := filepath.Join(dir, content.ConfigFile)
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}

// badSpec is the error for a schedule cron cannot read: a usage error when
// it came from a flag, a fault of kb.yaml (named) when it came from there.
func badSpec(flag, from, spec string, err error) error {
	if from != "" {
		return fmt.Errorf("%s %q: %v", from, spec, err)
	}
	return usageError{fmt.Errorf("%s %q: %v", flag, spec, err)}
}

func orDefault(spec string) string {
	if spec == "" {
		return content.DefaultSchedule
	}
	return spec
}

// runCron schedules the jobs and blocks until ctx is done, then stops the
// scheduler and waits for a running job up to stopTimeout; past that the
// job's context is cancelled (a batch is atomic: it lands whole or not).
func runCron(ctx context.Context, e *env, dir string, specs cronSpecs, stopTimeout time.Duration) error {
	lintSpec, reapSpec := specs.lint, specs.reap
	logger := log.New(e.stderr, "pt cron: ", log.LstdFlags)
	clog := cron.PrintfLogger(logger)
	// Recover sits inside SkipIfStillRunning: robfig's skip wrapper gives
	// its token back only when the job returns, so a panic escaping it
	// would skip every later run.
	c := cron.New(cron.WithParser(cronParser), cron.WithLogger(clog),
		cron.WithChain(cron.SkipIfStillRunning(clog), cron.Recover(clog)))
	jobCtx, cancelJobs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelJobs()

	// Every schedule is parsed before anything is logged, so that a bad one
	// is the only line pt prints.
	var notes []string
	if lintSpec != "off" {
		if _, err := c.AddFunc(lintSpec, func() { cronLint(jobCtx, logger, e, dir) }); err != nil {
			return badSpec("--lint", specs.lintFrom, lintSpec, err)
		}
		notes = append(notes, "lint scheduled: "+lintSpec)
	}
	if reapSpec != "off" {
		if reapJob == nil {
			notes = append(notes, "reap: the TTL reaper is not available in this build; skipped")
		} else {
			if _, err := c.AddFunc(reapSpec, func() { cronReap(jobCtx, logger, e, dir) }); err != nil {
				return badSpec("--reap", specs.reapFrom, reapSpec, err)
			}
			notes = append(notes, "reap scheduled: "+reapSpec)
		}
	}
	if specs.curate != "" && specs.curate != "off" {
		if _, err := c.AddFunc(specs.curate, func() { cronCurate(jobCtx, logger, e, dir) }); err != nil {
			return badSpec("--curate", specs.curateFrom, specs.curate, err)
		}
		notes = append(notes, "curate scheduled: "+specs.curate)
	}
	if specs.sync != "off" {
		if _, err := c.AddFunc(specs.sync, func() { cronSync(jobCtx, logger, e, dir) }); err != nil {
			return usageError{fmt.Errorf("--sync %q: %v", specs.sync, err)}
		}
		notes = append(notes, "sync scheduled: "+specs.sync)
	}
	for _, n := range notes {
		logger.Print(n)
	}
	if len(c.Entries()) == 0 {
		return usageError{fmt.Errorf("cron: nothing to schedule")}
	}
	c.Start()
	<-ctx.Done()
	logger.Printf("stopping")
	select {
	case <-c.Stop().Done():
		logger.Printf("stopped")
		return nil
	case <-time.After(stopTimeout):
		cancelJobs()
		return fmt.Errorf("cron: a job was still running %s after the stop; cancelled it", stopTimeout)
	}
}

// cronLint is one scheduled lint run. It opens the space afresh, so that
// it sees kb.yaml and the pages as they are now.
func cronLint(ctx context.Context, logger *log.Logger, e *env, dir string) {
	s, err := e.openAt(ctx, dir)
	if err != nil {
		logger.Printf("lint failed: %v", err)
		return
	}
	defer s.Close()
	rep, err := lint.Run(ctx, s, lint.Options{Author: cronAuthor})
	if err != nil {
		logger.Printf("lint failed: %v", err)
		return
	}
	logger.Print(rep.Summary())
	if rep.Batch != nil && !rep.Batch.Unchanged {
		pushAfterBatch(ctx, logger, s)
	}
}

// cronCurate is one scheduled curation run, with the mechanical rules
// alone: a scheduled run does not wait on a model.
func cronCurate(ctx context.Context, logger *log.Logger, e *env, dir string) {
	s, err := e.openAt(ctx, dir)
	if err != nil {
		logger.Printf("curate failed: %v", err)
		return
	}
	defer s.Close()
	rep, err := lint.Curate(ctx, s, lint.CurateOptions{Author: cronAuthor})
	if err != nil {
		logger.Printf("curate failed: %v", err)
		return
	}
	logger.Printf("curate: %d pages (%d read), %d new, %d resolved", rep.Pages, rep.Read, rep.Change.Opened, rep.Change.Resolved)
	if rep.Batch != nil && !rep.Batch.Unchanged {
		pushAfterBatch(ctx, logger, s)
	}
}

// cronReap is one scheduled reap run.
func cronReap(ctx context.Context, logger *log.Logger, e *env, dir string) {
	s, err := e.openAt(ctx, dir)
	if err != nil {
		logger.Printf("reap failed: %v", err)
		return
	}
	defer s.Close()
	if err := reapJob(ctx, s, time.Time{}); err != nil {
		logger.Printf("reap failed: %v", err)
		return
	}
	logger.Printf("reap done")
	pushAfterBatch(ctx, logger, s)
}
