package ingest_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// TestCrashSafety SIGKILLs ingest and import writers at random moments and
// checks after each round that every batch is wholly present or wholly
// absent, that git fsck is clean, and that the next ingest works with no
// repair.
func TestCrashSafety(t *testing.T) {
	_, dir := newSpace(t, "")
	corpusDir := filepath.Join(t.TempDir(), "corpus")
	for i := range 60 {
		writeFile(t, filepath.Join(corpusDir, "d", string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), "# Page\n\nSome text about page "+string(rune('a'+i))+".\n")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	deadline := time.Now().Add(8 * time.Second)
	rounds, killed, landed := 0, 0, 0
	for n := 0; time.Now().Before(deadline) && n < 25; n++ {
		mode, args := "ingest", []string{dir, "1" + string(rune('0'+n%10)) + string(rune('a'+n))}
		if n%3 == 0 {
			mode, args = "import", []string{dir, corpusDir}
			writeFile(t, filepath.Join(corpusDir, "d", "changing.md"), "# Changing\n\nRound "+string(rune('a'+n))+".\n")
		}
		cmd := helperCmd(t, mode, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(250)) * time.Millisecond)
		if cmd.Process.Kill() == nil {
			killed++
		}
		cmd.Wait()
		rounds++
		landed = checkHistory(t, dir)
	}
	if landed < 3 || landed > rounds {
		t.Errorf("%d of %d killed writers landed: the kills should hit both before and after the commit", landed-1, rounds)
	}
	// the next writer needs no repair
	if out, err := helperCmd(t, "ingest", dir, "999").CombinedOutput(); err != nil {
		t.Fatalf("ingest after %d crashes: %v\n%s", killed, err, out)
	}
	checkHistory(t, dir)
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step after recovery:\n%s", st)
	}
	t.Logf("%d rounds, %d kills, %d batches landed", rounds, killed, landed-1)
}
