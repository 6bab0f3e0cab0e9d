package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// startSync keeps a served space in step with the remote kb.yaml names:
// people's edits on the host come down every interval, and every batch an
// agent writes is pushed as soon as it lands (coalesced, one sync at a
// time). A space without a remote serves as it is. The returned function
// stops the syncer.
func startSync(e *env, s *wiki.Space, every time.Duration) func() {
	if s.Config().Remote == "" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(e.ctx)
	// synced is the head after the last good sync: a head that differs at
	// exit holds batches not pushed yet, whoever wrote them (this server,
	// or a pt command run on the same clone).
	// It starts as the head at start, so that a server whose remote never
	// answered does not wait on it again at exit for nothing new.
	var synced atomic.Value
	start, _ := s.Head(e.ctx)
	synced.Store(start)
	opts := withGitAuth(wiki.SyncOptions{Committer: wiki.Author{Name: "pt serve", Kind: "agent"}, Merge: syncMerges, Retitle: syncRetitles})
	report := func(r *wiki.SyncResult, err error) {
		if err != nil {
			fmt.Fprintf(e.stderr, "pt: sync failed (local batches are kept and pushed by the next sync): %v\n", err)
			return
		}
		if r.Received > 0 || r.Pushed > 0 || len(r.Dropped) > 0 {
			fmt.Fprintf(e.stderr, "pt: sync %s: received %d, pushed %d%s\n", r.Remote, r.Received, r.Pushed, droppedNote(r))
		}
	}
	y := wiki.NewSyncer(s, opts, every, func(r *wiki.SyncResult, err error) {
		if err == nil && r.RemoteHead != "" {
			// What the remote holds, not the head read now: a batch
			// landing between the push and that read would pass for
			// pushed.
			synced.Store(wiki.Rev(r.RemoteHead))
		}
		report(r, err)
	})
	s.SetAfterCommit(func(*wiki.Result) { y.Trigger() })
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = y.Run(ctx)
	}()
	return func() {
		s.SetAfterCommit(nil)
		cancel()
		<-done
		// Batches that landed after the last sync are pushed before the
		// server exits, so a short session's writes reach the host.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 30*time.Second)
		defer cancel()
		if h, err := s.Head(ctx); err == nil && h != synced.Load().(wiki.Rev) {
			report(s.Sync(ctx, opts))
		}
	}
}
