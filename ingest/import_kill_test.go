package ingest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki/spacegen"
)

// TestImportKilledWhileStaging SIGKILLs an import while it is writing its
// pack (the batch streams its pages there as they are staged) and checks
// that the repository is as it was: the branch and the index untouched, git
// fsck clean, the work tree clean, and no pack that git would read, only a
// tmp_pack_ file that git gc removes. The next import then lands whole.
func TestImportKilledWhileStaging(t *testing.T) {
	_, dir := newSpace(t, "")
	corpusDir := filepath.Join(t.TempDir(), "corpus")
	if err := spacegen.WriteCorpus(corpusDir, spacegen.Options{Pages: 400, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	head := git(t, dir, "rev-parse", "HEAD")
	packDir := filepath.Join(dir, ".git", "objects", "pack")
	packsBefore := packs(t, packDir)
	cmd := helperCmd(t, "import", dir, corpusDir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The kill comes once the pack has grown past its header: the batch
	// is staging pages, long before its commit.
	deadline := time.Now().Add(60 * time.Second)
	for !tmpPackGrown(packDir) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the import wrote no pack in 60s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()

	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved from %s to %s", head, got)
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree or index changed:\n%s", st)
	}
	if got := packs(t, packDir); got != packsBefore {
		t.Errorf("packs git reads: %q, want %q", got, packsBefore)
	}
	if out, err := helperCmd(t, "import", dir, corpusDir).CombinedOutput(); err != nil {
		t.Fatalf("import after the kill: %v\n%s", err, out)
	}
	checkHistory(t, dir)
	if n := len(strings.Fields(git(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "sources/"))); n != 400 {
		t.Errorf("%d sources after the second import, want 400", n)
	}
	git(t, dir, "gc", "--prune=now", "--quiet")
	for _, e := range readDir(t, packDir) {
		if strings.HasPrefix(e, "tmp_") {
			t.Errorf("git gc left %s", e)
		}
	}
}

// packs lists the .idx files of a pack directory: the packs git reads.
func packs(t *testing.T, dir string) string {
	var out []string
	for _, e := range readDir(t, dir) {
		if strings.HasSuffix(e, ".idx") {
			out = append(out, e)
		}
	}
	return strings.Join(out, " ")
}

func readDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// tmpPackGrown reports whether a pack being written holds some pages.
func tmpPackGrown(dir string) bool {
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if !strings.HasPrefix(e.Name(), "tmp_pack_") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Size() > 64<<10 {
			return true
		}
	}
	return false
}
