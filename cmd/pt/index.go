package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/retrieve"
)

func init() { register(newIndexCmd) }

func newIndexCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "index rebuild|status",
		Short: "rebuild or inspect the derived full-text index (under .git, never committed)",
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "say which commit the index reflects and how large it is",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			eng := retrieve.Open(s, retrieve.Options{})
			defer eng.Close()
			st, err := eng.Status(e.ctx)
			if err != nil {
				return err
			}
			return e.emit(st, func(w io.Writer) { renderStatus(w, st) })
		},
	}
	rebuild := &cobra.Command{
		Use:   "rebuild",
		Short: "delete the index and build it again from HEAD",
		Args:  argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			progress, finish := e.indexProgress()
			eng := retrieve.Open(s, retrieve.Options{Progress: progress})
			defer eng.Close()
			err = eng.Rebuild(e.ctx)
			finish()
			if err != nil {
				if errors.Is(err, retrieve.ErrIndexBusy) {
					return errors.New("rebuild index: another pt process (a running pt serve?) holds it; stop that process first, or leave the index to it: it keeps it current")
				}
				return err
			}
			st, err := eng.Status(e.ctx)
			if err != nil {
				return err
			}
			return e.emit(st, func(w io.Writer) {
				fmt.Fprintln(w, "rebuilt")
				renderStatus(w, st)
			})
		},
	}
	cmd.AddCommand(status, rebuild)
	needsSubcommand(cmd)
	return cmd
}

func renderStatus(w io.Writer, st retrieve.IndexStatus) {
	switch {
	case !st.Exists:
		fmt.Fprintf(w, "no index yet at %s (the next query builds it)\n", st.Dir)
		return
	case st.Busy && st.Commit == "":
		fmt.Fprintf(w, "index %s is held by %s\n", st.Dir, holder(st))
		return
	case st.Error != "":
		fmt.Fprintf(w, "index %s unreadable: %s (the next query rebuilds it)\n", st.Dir, st.Error)
		return
	}
	state := "current"
	switch {
	case st.Busy && st.Current:
		state = "current, held by " + holder(st) + " (queries here read it)"
	case st.Busy:
		state = "behind HEAD, held by " + holder(st) + " (which updates it)"
	case !st.Current:
		state = "behind HEAD (the next query updates it)"
	}
	fmt.Fprintf(w, "index %s\ncommit %s, %s\n%d units, %d bytes\n", st.Dir, st.Commit, state, st.Docs, st.Bytes)
}

// holder names the process that holds a busy index.
func holder(st retrieve.IndexStatus) string {
	if st.Holder > 0 {
		return fmt.Sprintf("another pt process (pid %d)", st.Holder)
	}
	return "another pt process"
}
