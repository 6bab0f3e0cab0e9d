package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// gcOffBound is the memory up to which a pt process runs without garbage
// collection. Most commands are over in a fraction of a second and
// allocate less than this (a query or an ingest on a space of 100,000
// pages, a few tens of megabytes); collecting their garbage cost them
// about a sixth of their CPU time on two cores.
const gcOffBound = 128 << 20

// softMemoryLimit is the heap size past which the collector works harder
// rather than let the process grow: an import of 100,000 files holds about
// 500 MB of live heap at its peak, and with the runtime's default pacing
// alone it grew to 1.3 GB of RSS; under this limit it stays at about
// 0.75 GB for some 15% more time. A process whose live heap stays under
// half the limit is not affected.
const softMemoryLimit = 768 << 20

// deferGC turns the garbage collector off until the process's memory
// reaches gcOffBound; the collection that the bound triggers puts the
// runtime's default pacing back, under softMemoryLimit, so a long command
// (pt serve, an import, a lint of a large space) collects as usual from
// then on. A GOGC or GOMEMLIMIT in the environment is the user's choice
// and is left alone.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcOffBound)
	// Unreachable from the start, so the first collection runs its cleanup;
	// larger than the tiny allocator's blocks, which may never be freed.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(struct{}) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(softMemoryLimit)
	}, struct{}{})
}
