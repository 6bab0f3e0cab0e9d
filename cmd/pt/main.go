// Command pt is the command line of pt, a git-native wiki engine with
// compounding file-back. It parses flags, opens a space, calls one package
// function and prints; the logic lives in the packages.
package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// bluge reports snapshots it skips on the standard logger ("error
	// loading snapshot epoch" while a server writes the index); pt reports
	// its own errors, and the index is a cache it rebuilds.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
