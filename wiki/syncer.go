package wiki

import (
	"context"
	"time"
)

// Syncer keeps a space in step with its remote from a long-running process
// (pt serve, pt cron): it syncs once when started, after every Trigger, and
// every interval, one sync at a time. Triggers that arrive during a sync
// are coalesced into one more sync, so a burst of batches costs one
// fetch-rebase-push. A failed sync keeps the local batches; the next one
// pushes them.
type Syncer struct {
	space    *Space
	opts     SyncOptions
	every    time.Duration
	kick     chan struct{}
	onResult func(*SyncResult, error)
}

// NewSyncer returns a Syncer for s. every <= 0 means no periodic sync (only
// the first one and triggers). onResult, when not nil, is called after each
// sync with its result and error (for the server's log).
func NewSyncer(s *Space, opts SyncOptions, every time.Duration, onResult func(*SyncResult, error)) *Syncer {
	return &Syncer{space: s, opts: opts, every: every, kick: make(chan struct{}, 1), onResult: onResult}
}

// Trigger asks for a sync soon. It never blocks, so it is safe to call from
// Space.SetAfterCommit:
//
//	s.SetAfterCommit(func(*wiki.Result) { syncer.Trigger() })
func (y *Syncer) Trigger() {
	select {
	case y.kick <- struct{}{}:
	default: // one is pending already
	}
}

// Run syncs until ctx is done; it returns ctx's error.
func (y *Syncer) Run(ctx context.Context) error {
	var tick <-chan time.Time
	if y.every > 0 {
		t := time.NewTicker(y.every)
		defer t.Stop()
		tick = t.C
	}
	y.Trigger()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
		case <-y.kick:
		}
		res, err := y.space.Sync(ctx, y.opts)
		if y.onResult != nil && ctx.Err() == nil {
			y.onResult(res, err)
		}
	}
}
