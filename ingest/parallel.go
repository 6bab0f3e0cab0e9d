package ingest

import (
	"runtime"
	"sync"
)

// parallel runs f(i) for i in [0, n) on as many goroutines as there are
// CPUs. Reading, checking and summarising the files of an import are
// independent of each other and dominate its time.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
