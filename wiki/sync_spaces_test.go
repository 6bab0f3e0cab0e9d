package wiki_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// In a repository of two spaces, a sync run from one space rebuilds the
// other space's batches as that space would: two replicas that both wrote
// to the second space sync without a conflict on its log or spokes.
func TestSyncRebuildsEachSpacesBatches(t *testing.T) {
	ctx := context.Background()
	bare, _ := twoSpaceHost(t)

	open := func(dir string) *wiki.Space {
		t.Helper()
		s, err := wiki.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
		t.Cleanup(func() { s.Close() })
		return s
	}
	rootA, dirA := replica(t, bare, bare)
	rootB, dirB := replica(t, bare, bare)
	a := ingest(t, open(filepath.Join(dirA, "infra")), "Runbook A", "ops")
	b := ingest(t, open(filepath.Join(dirB, "infra")), "Runbook B", "ops")
	if _, err := rootA.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rootB.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatalf("second replica's sync from the other space: %v", err)
	}
	logText := git(t, bare, "show", "main:infra/log.md")
	spoke := git(t, bare, "show", "main:infra/topics/ops.md")
	for _, id := range []string{a, b} {
		if strings.Count(logText, "`"+id+"`") != 1 {
			t.Errorf("infra/log.md does not hold batch %s once:\n%s", id, logText)
		}
	}
	for _, p := range []string{"runbook-a.md", "runbook-b.md"} {
		if !strings.Contains(spoke, p) {
			t.Errorf("infra's spoke lacks %s:\n%s", p, spoke)
		}
	}
}

// A batch of a space that was deleted upstream is not rebuilt there as a
// folder without its kb.yaml: the sync reports the conflict, whether it
// runs from another space of the repository or from the deleted one.
func TestSyncDoesNotRebuildADeletedSpace(t *testing.T) {
	for _, fromInfra := range []bool{false, true} {
		t.Run(fmt.Sprintf("from infra %v", fromInfra), func(t *testing.T) {
			ctx := context.Background()
			bare, seed := twoSpaceHost(t)
			root, dir := replica(t, bare, bare)
			s, err := wiki.Open(ctx, filepath.Join(dir, "infra"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ingest(t, s, "Runbook A", "ops")
			git(t, seed, "rm", "-q", "-r", "infra")
			git(t, seed, "commit", "-q", "-m", "remove the infra space")
			git(t, seed, "push", "-q", "origin", "main")
			syncing := root
			if fromInfra {
				syncing = s
			}
			if _, err := syncing.Sync(ctx, wiki.SyncOptions{}); err == nil || !strings.Contains(err.Error(), "conflict") {
				t.Errorf("sync of a batch whose space is gone upstream: %v, want a conflict", err)
			}
			if got := git(t, bare, "ls-tree", "--name-only", "main", "infra"); got != "" {
				t.Errorf("the host holds infra/ again: %s", got)
			}
		})
	}
}

// twoSpaceHost makes a host repository (bare) of two spaces, the root and
// infra/, and returns it with the person's clone that created infra/.
func twoSpaceHost(t *testing.T) (bare, seed string) {
	t.Helper()
	_, bare = hostRepo(t, true)
	seed = filepath.Join(t.TempDir(), "seed")
	git(t, filepath.Dir(seed), "clone", "-q", bare, seed)
	infra, _, err := wiki.Init(context.Background(), filepath.Join(seed, "infra"), wiki.InitOptions{Name: "infra", Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	infra.Close()
	git(t, seed, "push", "-q", "origin", "main")
	return bare, seed
}
