package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's setting (setting it changes it, so it is
// set back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// A pt process collects no garbage until its memory reaches the bound; the
// first collection puts the runtime's pacing back, under the soft limit.
func TestDeferGCUntilTheFirstCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}()
	deferGC()
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); p != -1 || limit != gcOffBound {
		t.Fatalf("after deferGC: GOGC %d, memory limit %d; want off and %d", p, limit, gcOffBound)
	}
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 || debug.SetMemoryLimit(-1) != softMemoryLimit {
		if time.Now().After(deadline) {
			t.Fatalf("after a collection: GOGC %d, memory limit %d; want 100 and %d", gcPercent(), debug.SetMemoryLimit(-1), softMemoryLimit)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// A GOGC the user set is theirs.
func TestDeferGCLeavesTheUsersSetting(t *testing.T) {
	t.Setenv("GOGC", "200")
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	deferGC()
	if p := gcPercent(); p != 150 {
		t.Fatalf("GOGC %d after deferGC with GOGC set; want it untouched (150)", p)
	}
}
