package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// scriptEnv is the environment every script starts with: a fixed identity,
// HOME in the script's own folder and a stated clock (a script sets
// PT_TEST_CLOCK itself to date its batches otherwise).
func scriptEnv(home string) []string {
	return []string{
		"GIT_AUTHOR_NAME=dana",
		"GIT_AUTHOR_EMAIL=dana@example.com",
		"GIT_COMMITTER_NAME=dana",
		"GIT_COMMITTER_EMAIL=dana@example.com",
		"HOME=" + home,
		"PT_TEST_CLOCK=2026-11-29T18:00:00Z",
	}
}

// TestScripts runs the end-to-end scripts in testdata/script, one per
// feature, against real temporary git repositories.
func TestScripts(t *testing.T) {
	newSpace := spaceTemplate(t.TempDir())
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			for _, kv := range scriptEnv(env.WorkDir) {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"waitfor": waitFor, "freeport": freePort, "http": httpCall, "cijob": ciJob, "newspace": newSpace},
	})
}

// spaceTemplate returns the script command
//
//	newspace DIR
//
// which puts at DIR a copy of the space `pt init DIR --name team` makes in a
// script's starting environment. The space is made once, by pt itself, under
// base, and copied for each script that asks: most scripts start from it, and
// pt init is checked on its own by the scripts that run it.
func spaceTemplate(base string) func(ts *testscript.TestScript, neg bool, args []string) {
	var once sync.Once
	var tmplErr error
	tmpl := filepath.Join(base, "kb")
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: newspace dir")
		}
		once.Do(func() {
			cmd := exec.Command("pt", "init", tmpl, "--name", "team")
			cmd.Dir = base
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}, scriptEnv(base)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				tmplErr = fmt.Errorf("pt init: %v\n%s", err, out)
			}
		})
		ts.Check(tmplErr)
		ts.Check(os.CopyFS(ts.MkAbs(args[0]), os.DirFS(tmpl)))
	}
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
