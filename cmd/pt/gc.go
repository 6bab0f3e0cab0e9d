package main

import (
	"math"
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

// deferGC turns the garbage collector off until the process's memory
// reaches gcOffBound; the collection that the bound triggers puts the
// runtime's defaults back, so a long command (pt serve, an import, a lint
// of a large space) collects as usual from then on. A GOGC or GOMEMLIMIT
// in the environment is the user's choice and is left alone.
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
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}
