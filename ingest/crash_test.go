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
	// The kill moment adapts to how long a writer takes on this machine (a
	// race-enabled or loaded run is several times slower): it moves later
	// after a kill that came before the commit and earlier after one that
	// came after, so the kills keep landing on both sides of the commit.
	delay := 60 * time.Millisecond
	// The rounds stop once both sides are hit (12 rounds on a quiet
	// machine); the deadline is for a machine so loaded that a writer
	// takes seconds.
	deadline := time.Now().Add(90 * time.Second)
	rounds, killed, landed, before, after := 0, 0, checkHistory(t, dir), 0, 0
	for n := 0; time.Now().Before(deadline) && n < 40 && (n < 12 || before == 0 || after == 0); n++ {
		mode, args := "ingest", []string{dir, "1" + string(rune('0'+n%10)) + string(rune('a'+n%26))}
		if n%3 == 0 {
			mode, args = "import", []string{dir, corpusDir}
			writeFile(t, filepath.Join(corpusDir, "d", "changing.md"), "# Changing\n\nRound "+string(rune('a'+n%26))+string(rune('a'+n/26))+".\n")
		}
		cmd := helperCmd(t, mode, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(float64(delay) * (0.5 + rng.Float64())))
		if cmd.Process.Kill() == nil {
			killed++
		}
		cmd.Wait()
		rounds++
		now := checkHistory(t, dir)
		if now > landed {
			after++
			delay = delay * 7 / 10
		} else {
			before++
			delay = delay * 14 / 10
		}
		landed = now
	}
	if before == 0 || after == 0 {
		t.Errorf("%d rounds: %d kills before the commit, %d after: the kills should hit both sides", rounds, before, after)
	}
	// the next writer needs no repair
	if out, err := helperCmd(t, "ingest", dir, "999").CombinedOutput(); err != nil {
		t.Fatalf("ingest after %d crashes: %v\n%s", killed, err, out)
	}
	checkHistory(t, dir)
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step after recovery:\n%s", st)
	}
	t.Logf("%d rounds, %d kills: %d before the commit, %d after (last delay %v)", rounds, killed, before, after, delay)
}
