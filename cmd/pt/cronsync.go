package main

import (
	"context"
	"log"

	"github.com/ptwiki/pt/wiki"
)

// defaultSyncSpec is how often pt cron pulls and pushes when kb.yaml names a
// remote and no --sync is given.
const defaultSyncSpec = "@every 1m"

// cronSpecs are the schedules of pt cron's jobs; "off" disables one.
// lintFrom and reapFrom name where a schedule was read when no flag gave it
// (kb.yaml's lint.schedule), so that a bad one is reported where it can be
// fixed; empty means the flag.
type cronSpecs struct{ lint, reap, sync, curate, lintFrom, reapFrom, curateFrom string }

// cronSync is one scheduled sync: people's edits on the host come down, this
// replica's batches go up.
func cronSync(ctx context.Context, logger *log.Logger, e *env, dir string) {
	s, err := e.openAt(ctx, dir)
	if err != nil {
		logger.Printf("sync failed: %v", err)
		return
	}
	defer s.Close()
	syncOnce(ctx, logger, s)
}

// pushAfterBatch syncs right after a scheduled batch when the space has a
// remote, so findings and expiries reach the host without waiting.
func pushAfterBatch(ctx context.Context, logger *log.Logger, s *wiki.Space) {
	if s.Config().Remote == "" {
		return
	}
	syncOnce(ctx, logger, s)
}

func syncOnce(ctx context.Context, logger *log.Logger, s *wiki.Space) {
	res, err := s.Sync(ctx, withGitAuth(wiki.SyncOptions{Committer: cronAuthor, Merge: syncMerges, Retitle: syncRetitles}))
	if err != nil {
		logger.Printf("sync failed (local batches are kept and pushed by the next sync): %v", err)
		return
	}
	logger.Printf("sync %s: received %d, pushed %d%s", res.Remote, res.Received, res.Pushed, droppedNote(res))
}
