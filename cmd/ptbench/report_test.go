package main

import (
	"strings"
	"testing"
	"time"
)

func TestSpreadAndRatios(t *testing.T) {
	if got := spreadOf([]float64{5, 1, 3}); got != (spread{3, 1, 5}) {
		t.Errorf("odd count: %+v", got)
	}
	if got := spreadOf([]float64{4, 1, 2, 3}); got != (spread{2.5, 1, 4}) {
		t.Errorf("even count: %+v", got)
	}
	ms := func(n int) sample { return sample{wall: time.Duration(n) * time.Millisecond} }
	r := row{pages: 10, figure: "f", anchor: "a"}
	// Pair by pair: a machine twice as slow in the second pair moves both.
	r.add(ms(10), ms(40))
	r.add(ms(20), ms(80))
	r.add(ms(30), ms(60))
	if got := spreadOf(r.ratios()); got != (spread{0.25, 0.25, 0.5}) {
		t.Errorf("ratios %+v, want median 0.25, min 0.25, max 0.5", got)
	}
	if tbl := markdownTable([]row{r}); !strings.Contains(tbl, "| 10 | f | 20 ms (10–30) |") || !strings.Contains(tbl, "0.25× (0.25–0.50)") {
		t.Errorf("table:\n%s", tbl)
	}
}
