// Command pt is the command line of pt, a git-native wiki engine with
// compounding file-back. It parses flags, opens a space, calls one package
// function and prints; the logic lives in the packages.
package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	deferGC()
	log.SetOutput(quietBluge{os.Stderr})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
