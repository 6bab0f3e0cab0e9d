package main

import (
	"context"
	"fmt"
	"time"

	"github.com/ptwiki/pt/retrieve"
)

// startIndexFollow keeps a served space's index at its head: at once, so
// that the first question does not wait for a rebuild, and then every
// interval, so that commits made elsewhere (a person's push pulled down, pt
// ingest in a terminal) are indexed before the next question and a pt
// query-kb run beside the server reads the server's index instead of
// indexing the space again. A failure is reported once until it changes;
// queries still bring the index up to date themselves. The returned function
// stops it.
func startIndexFollow(e *env, eng *retrieve.Engine, every time.Duration) func() {
	if every <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		last := ""
		for {
			err := eng.Refresh(ctx)
			if ctx.Err() != nil {
				return
			}
			if msg := fmt.Sprint(err); err != nil && msg != last {
				fmt.Fprintf(e.stderr, "pt: index: %v (queries update it themselves)\n", err)
				last = msg
			} else if err == nil {
				last = ""
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
