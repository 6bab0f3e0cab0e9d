package ingest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// TestMain lets the test binary act as a writer process for the
// concurrency and crash tests: with PT_INGEST_HELPER set it runs one
// ingest or import against a space and exits, like `pt ingest` and
// `pt import` do.
func TestMain(m *testing.M) {
	if mode := os.Getenv("PT_INGEST_HELPER"); mode != "" {
		os.Exit(helper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func helper(mode string, args []string) int {
	ctx := context.Background()
	s, err := wiki.Open(ctx, args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
	switch mode {
	case "ingest":
		n, _ := strconv.Atoi(args[1])
		_, err = ingest.Ingest(ctx, s, ingest.Source{
			Title: fmt.Sprintf("Writer %d notes", n), Body: []byte(fmt.Sprintf("%s\nWriter %d was here.\n", standup, n)),
			Topics: []string{fmt.Sprintf("writer-%d", n%3)}, ApprovedBy: "dana", Author: dana,
		})
	case "import":
		_, err = ingest.Import(ctx, s, args[1], ingest.ImportOptions{ApprovedBy: "dana", Author: dana})
	default:
		err = fmt.Errorf("unknown helper mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// helperCmd returns a command that runs this test binary as a writer.
func helperCmd(t testing.TB, mode string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PT_INGEST_HELPER="+mode)
	return cmd
}

// checkHistory verifies what every batch of the history promises: each
// commit's tree holds a summary for every source and a source for every
// summary, the log has exactly one entry per batch, and git fsck is clean.
func checkHistory(t testing.TB, dir string) (batches int) {
	t.Helper()
	git(t, dir, "fsck", "--strict")
	if merges := git(t, dir, "rev-list", "--merges", "HEAD"); merges != "" {
		t.Errorf("history is not linear: merges %s", merges)
	}
	ids := map[string]bool{}
	for _, c := range strings.Fields(git(t, dir, "rev-list", "HEAD")) {
		files := map[string]bool{}
		for _, f := range strings.Fields(git(t, dir, "ls-tree", "-r", "--name-only", c)) {
			files[f] = true
		}
		for f := range files {
			if rest, ok := strings.CutPrefix(f, "sources/"); ok && !files["summaries/"+rest] {
				t.Errorf("commit %s has %s without its summary", c[:12], f)
			}
			if rest, ok := strings.CutPrefix(f, "summaries/"); ok && !files["sources/"+rest] {
				t.Errorf("commit %s has %s without its source", c[:12], f)
			}
		}
		msg := git(t, dir, "log", "-1", "--format=%B", c)
		for _, l := range strings.Split(msg, "\n") {
			if id, ok := strings.CutPrefix(l, "Batch-Id: "); ok {
				ids[id] = true
			}
		}
	}
	log := fullLog(t, dir, "HEAD")
	entries := 0
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "- ") && strings.Contains(l, " · `b-") {
			entries++
			id := l[strings.Index(l, "`")+1:]
			id = id[:strings.Index(id, "`")]
			if !ids[id] {
				t.Errorf("log entry for %s, a batch with no commit", id)
			}
		}
	}
	if entries != len(ids) {
		t.Errorf("log has %d entries for %d batches", entries, len(ids))
	}
	return len(ids)
}
