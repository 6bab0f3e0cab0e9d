package ingest_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// A page a person committed with git and no frontmatter is theirs: fan-out
// leaves it alone, lint gives it findings only, and an agent's revert
// neither deletes nor rewrites it.
func TestNoAuthorIsHumanOwned(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	writeFile(t, filepath.Join(dir, "pages", "oncall.md"), "# On-call\n\nPage the storage lead first.\n")
	git(t, dir, "add", "pages")
	git(t, dir, "commit", "-q", "-m", "on-call page by hand")
	blob := git(t, dir, "rev-parse", "HEAD:pages/oncall.md")

	res, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Storage standup", Body: []byte(standup), Topics: []string{"storage"},
		Related: []string{"pages/oncall.md"}, ApprovedBy: "dana", Author: dana})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "HEAD:pages/oncall.md"); got != blob {
		t.Errorf("fan-out rewrote a page with no author:\n%s", git(t, dir, "show", "HEAD:pages/oncall.md"))
	}
	if len(res.NotUpdated) != 1 || res.NotUpdated[0].Path != "pages/oncall.md" || !strings.Contains(res.NotUpdated[0].Reason, "human-owned") {
		t.Errorf("not_updated: %+v", res.NotUpdated)
	}

	// An agent cannot revert a person's ingest: the source is theirs.
	before := stateOf(t, dir)
	_, err = s.Revert(ctx, res.Batch, wiki.RevertOptions{Author: agent})
	if !errors.Is(err, wiki.ErrPeoplesPages) || !strings.Contains(err.Error(), "sources/storage-standup.md (dana)") || strings.Contains(err.Error(), "summaries/") {
		t.Errorf("agent revert of a person's source: %v", err)
	}
	if got := stateOf(t, dir); got != before {
		t.Errorf("refused revert changed the repository: %+v -> %+v", before, got)
	}
	// A person can.
	if _, err := s.Revert(ctx, res.Batch, wiki.RevertOptions{ApprovedBy: "dana", Author: dana}); err != nil {
		t.Errorf("person's revert: %v", err)
	}

	// An agent's own ingest it may revert.
	mine, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Agent notes", Body: []byte("Notes the agent took.\n"), ApprovedBy: "dana", Author: agent})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revert(ctx, mine.Batch, wiki.RevertOptions{Author: agent}); err != nil {
		t.Errorf("agent revert of its own ingest: %v", err)
	}
	rep, err := lint.Run(ctx, s, lint.Options{DryRun: true})
	if err != nil || len(rep.MarkedStale) != 0 {
		t.Errorf("lint: %v, marked stale %v", err, rep.MarkedStale)
	}
}
