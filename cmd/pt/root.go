package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/wiki"
)

// Exit codes, in one place: 0 ok, 1 failure or findings, 2 usage.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// env is what every command gets: its streams and the global flags.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	kb     string     // --kb
	json   bool       // --json
	clock  wiki.Clock // $PT_TEST_CLOCK in tests; nil is the wall clock
}

// commands registers the subcommands; each command file adds its own in an
// init function, so commands stay one file each.
var commands []func(e *env) *cobra.Command

func register(f func(e *env) *cobra.Command) { commands = append(commands, f) }

// usageError marks errors in how pt was called (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// exitError carries an exit code chosen by a command (lint --fail-on).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	clock, err := clockFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "pt: "+err.Error())
		return exitUsage
	}
	e.clock = clock
	root := &cobra.Command{
		Use:           "pt",
		Short:         "pt: a git-native wiki with compounding file-back",
		Long:          "pt keeps a team's knowledge as Markdown pages with provenance in a git repository.\nEvery change is one commit; agents query it before they implement and file answers back.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().StringVar(&e.kb, "kb", "", "the space's directory (default $PT_KB, else the nearest kb.yaml at or above the working directory)")
	root.PersistentFlags().BoolVar(&e.json, "json", false, "print JSON")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.Version = buildVersion()
	root.SetVersionTemplate("pt {{.Version}}\n")
	for _, f := range commands {
		root.AddCommand(f(e))
	}
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Short = "print the shell completion script: pt completion bash|zsh|fish|powershell"
		needsSubcommand(c)
	}
	root.SetArgs(args)
	err = root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// gitstore names itself in its errors for pt's developers; a person
	// reading one line on stderr learns nothing from the package name.
	msg := strings.TrimSpace(strings.ReplaceAll(err.Error(), "gitstore: ", ""))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	fmt.Fprintln(stderr, "pt: "+msg)
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.Contains(msg, "accepts") && strings.Contains(msg, "arg(s)") {
		return exitUsage
	}
	return exitFailure
}

// spaceDir picks the space: --kb, else $PT_KB, else the nearest kb.yaml.
func (e *env) spaceDir() (string, error) {
	if e.kb != "" {
		return e.kb, nil
	}
	if v := os.Getenv("PT_KB"); v != "" {
		return v, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return wiki.Find(wd)
}

// open opens the command's space.
func (e *env) open() (*wiki.Space, error) {
	dir, err := e.spaceDir()
	if err != nil {
		return nil, err
	}
	if e.kb != "" || os.Getenv("PT_KB") != "" {
		flag := "--kb"
		if e.kb == "" {
			flag = "$PT_KB"
		}
		if st, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("%s %s: no such directory", flag, dir)
		} else if !st.IsDir() {
			return nil, fmt.Errorf("%s %s: not a directory (name the folder that holds kb.yaml)", flag, dir)
		}
	}
	s, err := e.openAt(e.ctx, dir)
	if errors.Is(err, wiki.ErrNotFound) && (e.kb != "" || os.Getenv("PT_KB") != "") {
		return nil, fmt.Errorf("%s is in no git repository, so it holds no space: run pt init there, or name a space's folder", dir)
	}
	if errors.Is(err, wiki.ErrNoSpace) && (e.kb != "" || os.Getenv("PT_KB") != "") {
		// --kb and $PT_KB name the space's own folder; say which folder
		// holds one when dir is below it.
		hint := "run pt init there, or name the folder that holds kb.yaml"
		if up, ferr := wiki.Find(dir); ferr == nil {
			hint = "the space around it is " + up
		}
		return nil, fmt.Errorf("%s holds no kb.yaml (--kb and $PT_KB name a space's folder): %s", dir, hint)
	}
	return s, err
}

// emit prints v as JSON with --json, else its human rendering, with any
// control character a page carried shown as an escape (inertWriter).
func (e *env) emit(v any, human func(w io.Writer)) error {
	if e.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	human(inertWriter{e.stdout})
	return nil
}

// needsSubcommand makes a command that only groups others refuse a missing
// or unknown subcommand with one error line and exit 2, as pt does for an
// unknown top-level command; cobra would print the help and exit 0.
func needsSubcommand(cmd *cobra.Command) {
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	want := strings.Join(names, ", ")
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageError{fmt.Errorf("%s needs a command: %s", c.Name(), want)}
		}
		return usageError{fmt.Errorf("unknown %s command %q (want %s)", c.Name(), args[0], want)}
	}
}

// argsN wraps cobra's arity checks as usage errors.
func argsN(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min || (max >= 0 && len(args) > max) {
			switch {
			case min == max:
				return usageError{fmt.Errorf("%s takes %d argument(s), got %d", cmd.Name(), min, len(args))}
			case max < 0:
				return usageError{fmt.Errorf("%s takes at least %d argument(s), got %d", cmd.Name(), min, len(args))}
			default:
				return usageError{fmt.Errorf("%s takes %d to %d arguments, got %d", cmd.Name(), min, max, len(args))}
			}
		}
		return nil
	}
}
