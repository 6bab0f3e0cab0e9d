package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// ptRun runs pt in process and returns its exit code, stdout and stderr.
func ptRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestShowRevBatch reads a page as a batch left it, by the batch id that
// pt log prints, and says plainly when a page or revision does not exist.
func TestShowRevBatch(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "dana")
	t.Setenv("HOME", t.TempDir())
	kb := filepath.Join(t.TempDir(), "kb")
	if code, _, errs := ptRun(t, "", "init", kb); code != 0 {
		t.Fatal(errs)
	}
	var batches, sources []string
	for i, body := range []string{"The ledger uses Postgres.\n", "The ledger moved to CockroachDB.\n"} {
		title := []string{"Ledger store", "Ledger migration"}[i]
		code, out, errs := ptRun(t, body, "--kb", kb, "--json", "ingest", "-", "--title", title, "--approved-by", "dana")
		if code != 0 {
			t.Fatal(errs)
		}
		var res struct {
			Batch string
			Pages []struct{ Path, Role string }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Batch == "" || len(res.Pages) == 0 || res.Pages[0].Role != "source" {
			t.Fatalf("ingest --json: %v: %q", err, out)
		}
		batches = append(batches, res.Batch)
		sources = append(sources, res.Pages[0].Path)
	}
	first, second := sources[0], sources[1]
	code, out, errs := ptRun(t, "", "--kb", kb, "show", first, "--rev", batches[0])
	if code != 0 || !strings.Contains(out, "Postgres") {
		t.Errorf("show --rev %s: exit %d, %q %q", batches[0], code, out, errs)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"show", second, "--rev", batches[0]}}, // not yet written
		{[]string{"show", "pages/none.md"}},
		{[]string{"show", first, "--rev", "b-nosuch"}},
		{[]string{"show", first, "--rev", "nosuch"}},
	} {
		code, out, errs := ptRun(t, "", append([]string{"--kb", kb}, tc.args...)...)
		if code != 1 || out != "" || !strings.HasPrefix(errs, "pt: ") || strings.Count(errs, "\n") != 1 ||
			!strings.Contains(errs, "not found") && !strings.Contains(errs, "no such page") || strings.Contains(errs, "gitstore") {
			t.Errorf("pt %v: exit %d, stdout %q, stderr %q; want one plain error line", tc.args, code, out, errs)
		}
	}
}
