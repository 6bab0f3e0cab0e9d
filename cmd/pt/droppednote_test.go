package main

import (
	"testing"

	"github.com/ptwiki/pt/wiki"
)

// pt serve and pt cron report in one line per sync; a batch a sync dropped
// because the remote already held it is named there, as pt sync lists it.
func TestDroppedNote(t *testing.T) {
	if got := droppedNote(&wiki.SyncResult{}); got != "" {
		t.Errorf("nothing dropped: %q", got)
	}
	r := &wiki.SyncResult{Dropped: []wiki.Dropped{{Batch: "b-20261130-aaaaaa"}, {Commit: "0123456789abcdef0123"}}}
	if got, want := droppedNote(r), ", dropped b-20261130-aaaaaa, 0123456789ab (already applied upstream)"; got != want {
		t.Errorf("droppedNote = %q, want %q", got, want)
	}
}
