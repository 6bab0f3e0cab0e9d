package main

import (
	"context"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as pt inside the scripts, in process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pt": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script, one per
// feature, against real temporary git repositories.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GIT_AUTHOR_NAME", "dana")
			env.Setenv("GIT_AUTHOR_EMAIL", "dana@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "dana")
			env.Setenv("GIT_COMMITTER_EMAIL", "dana@example.com")
			env.Setenv("HOME", env.WorkDir)
			// Scripts state their time: every batch is dated here unless a
			// script sets PT_TEST_CLOCK itself.
			env.Setenv("PT_TEST_CLOCK", "2026-11-29T18:00:00Z")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"waitfor": waitFor, "freeport": freePort, "http": httpCall, "cijob": ciJob},
	})
}

// waitFor runs a command again and again until its output matches a
// pattern, for scripts that wait on a process in the background:
//
//	waitfor TIMEOUT PATTERN COMMAND [ARGS...]
func waitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: waitfor timeout pattern command [args...]")
	}
	limit, err := time.ParseDuration(args[0])
	ts.Check(err)
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(limit)
	for {
		err := ts.Exec(args[2], args[3:]...)
		out := ts.ReadFile("stdout")
		if err == nil && re.MatchString(out) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfor: %q not in the output of %s after %v; last output:\n%s%v", args[1], args[2], limit, out, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
