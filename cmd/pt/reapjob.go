package main

import (
	"context"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// The reaper as pt cron schedules it: one reap batch (or none) per run,
// approved by the schedule itself.
func init() {
	reapJob = func(ctx context.Context, s *wiki.Space, now time.Time) error {
		_, err := ingest.Reap(ctx, s, now, "pt cron")
		return err
	}
}
