package neardup

import (
	"math"
	"testing"
)

func TestQuestionOverlap(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"How are ledger replays made safe?", "how are LEDGER replays made safe", 1},
		{"How are ledger replays made safe?", "Who is on call this week?", 0},
		{"", "How are ledger replays made safe?", 0},
	} {
		if got := QuestionOverlap(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("QuestionOverlap(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	// Sharing some words but not all lands strictly between.
	if o := QuestionOverlap("How are ledger replays made safe?", "How are ledger writes retried?"); o <= 0 || o >= SameQuestion {
		t.Errorf("partial overlap %v, want in (0, %v)", o, SameQuestion)
	}
}

// Two texts that draw on the same passage overlap whatever their wording;
// texts that draw on different passages do not.
func TestGroundOverlap(t *testing.T) {
	g := GroundOf([]string{
		"Replays carry idempotency keys kept in redis for seven days.\n\n- Deploys stop on Thursdays before the freeze.\n",
		"The pager rotation is weekly.\n",
	})
	if len(g) != 3 {
		t.Fatalf("ground has %d blocks, want 3 (two paragraphs and a list item)", len(g))
	}
	keys := g.Footprint("idempotency keys in redis")
	keys2 := g.Footprint("redis keeps the idempotency keys")
	deploys := g.Footprint("deploys stop thursdays")
	if o := Overlap(keys, keys2); o < SameGround {
		t.Errorf("same passage overlap %v, want >= %v", o, SameGround)
	}
	if o := Overlap(keys, deploys); o != 0 {
		t.Errorf("different passages overlap %v, want 0", o)
	}
	if o := Overlap(keys, g.Footprint("nothing relevant here zebra")); o != 0 {
		t.Errorf("unrelated text overlap %v, want 0", o)
	}
}
