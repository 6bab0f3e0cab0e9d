package main

import (
	"context"
	"os"
	"testing"

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
			return nil
		},
	})
}
