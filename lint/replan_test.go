package lint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/lint"
)

// TestRunReplanDescribesCommit: when a person commits between lint's
// planning and its batch, lint plans again on the new head, and the commit
// subject and log entry count the rows of the findings.json committed,
// not those of the first plan.
func TestRunReplanDescribesCommit(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	plant(t, dir, "testdata/planted.txtar")
	prep, err := lint.Prepare(ctx, s, lint.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	page := "---\ntitle: Late\n---\nA page written while lint ran: [gone](gone.md).\n"
	if err := os.WriteFile(filepath.Join(dir, "pages", "late.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "late: a page with a dead link")
	rep, err := prep.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Batch == nil {
		t.Fatal("lint made no commit")
	}
	if got := strings.TrimSpace(git(t, dir, "log", "-2", "--format=%s")); !strings.Contains(got, "late: a page with a dead link") {
		t.Fatalf("lint batch is not on top of the late commit:\n%s", got)
	}
	var file struct{ Findings []lint.Finding }
	if err := json.Unmarshal([]byte(git(t, dir, "show", "HEAD:findings.json")), &file); err != nil {
		t.Fatal(err)
	}
	open, late := 0, false
	for _, f := range file.Findings {
		if f.Open() {
			open++
		}
		late = late || f.Path == "pages/late.md"
	}
	if !late {
		t.Fatalf("committed findings.json has no row for the late page")
	}
	want := fmt.Sprintf("%d open findings (%d new, 0 resolved)", open, open)
	if subject := strings.TrimSpace(git(t, dir, "log", "-1", "--format=%s")); !strings.HasPrefix(subject, "lint: "+want) {
		t.Errorf("commit subject %q, want it to start with %q", subject, "lint: "+want)
	}
	if body := git(t, dir, "log", "-1", "--format=%b"); !strings.Contains(body, "pages/late.md") {
		t.Errorf("commit body does not list the late page's finding:\n%s", body)
	}
	if log := git(t, dir, "show", "HEAD:log.md"); !strings.Contains(log, want) {
		t.Errorf("log.md has no entry saying %q:\n%s", want, log)
	}
	git(t, dir, "fsck", "--strict")
}
