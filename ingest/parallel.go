package ingest

import (
	"runtime"
	"sync"
	"sync/atomic"
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

// ordered runs work(i) for i in [0, n) on as many goroutines as there are
// CPUs and calls emit(i) in order, on the caller's goroutine, as soon as
// work(i) and every emit before it are done. work runs at most a small
// window ahead of emit, so what it produces for emit is held for a few
// items at a time, whatever n is. The first error of emit stops it.
func ordered(n int, work func(i int), emit func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			work(i)
			if err := emit(i); err != nil {
				return err
			}
		}
		return nil
	}
	window := 16 * workers
	done := make([]chan struct{}, window) // item i signals on done[i%window]
	for k := range done {
		done[k] = make(chan struct{}, 1)
	}
	// A worker holds a token from taking an item until it is emitted, so
	// the items in flight are at most window apart and own their slots.
	tokens := make(chan struct{}, window)
	stop := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case tokens <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1)) - 1
				if i >= n {
					<-tokens
					return
				}
				work(i)
				done[i%window] <- struct{}{}
			}
		})
	}
	var err error
	for i := range n {
		<-done[i%window]
		err = emit(i)
		<-tokens
		if err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	return err
}
