package ingest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// lsTree lists path and blob of every file at rev except the log, which a
// revert appends to rather than restores.
func lsTree(t *testing.T, dir, rev string) []string {
	var out []string
	for _, l := range strings.Split(git(t, dir, "ls-tree", "-r", rev), "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[3] != "log.md" {
			out = append(out, f[3]+" "+f[2])
		}
	}
	return out
}

// TestRevertIngestAndImport reverts an ingest (with fan-out, spokes and a
// new hub line) and an import, end to end: each revert is one commit that
// brings every path of the batch back, spokes and hub included.
func TestRevertIngestAndImport(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	putPages(t, s, map[string]*content.Page{"pages/storage.md": agentPage("Storage", "storage")})
	beforeIngest := lsTree(t, dir, "HEAD")
	res, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Standup", Body: []byte(standup), Topics: []string{"standups"},
		Related: []string{"pages/storage.md"}, ApprovedBy: "dana", Author: dana, When: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]bool{}
	for _, p := range res.Pages {
		roles[p.Role] = true
	}
	if !roles[wiki.RoleHub] || !roles[wiki.RoleFanOut] || !roles[wiki.RoleSpoke] {
		t.Fatalf("the ingest should touch hub, spoke and a fan-out page: %+v", res.Pages)
	}
	corpusDir := filepath.Join(t.TempDir(), "docs")
	writeCorpus(t, corpusDir)
	beforeImport := lsTree(t, dir, "HEAD")
	imp, err := ingest.Import(ctx, s, corpusDir, ingest.ImportOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		batch string
		want  []string
	}{{imp.Batch, beforeImport}, {res.Batch, beforeIngest}} {
		head := git(t, dir, "rev-parse", "HEAD")
		rv, err := s.Revert(ctx, c.batch, wiki.RevertOptions{ApprovedBy: "dana", Author: dana, When: t0.Add(3 * time.Hour)})
		if err != nil {
			t.Fatalf("revert %s: %v", c.batch, err)
		}
		if git(t, dir, "rev-parse", "HEAD~1") != head || rv.Commit != git(t, dir, "rev-parse", "HEAD") {
			t.Errorf("revert of %s is not one commit", c.batch)
		}
		if d := cmp.Diff(c.want, lsTree(t, dir, "HEAD")); d != "" {
			t.Errorf("after reverting %s (-want +got):\n%s", c.batch, d)
		}
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}
