package retrieve

import (
	"context"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
)

func TestProximity(t *testing.T) {
	w := map[string]float64{"refund": 2, "queue": 2, "owner": 1}
	near := proximity(positionsOf(index.Tokens("The refund queue has an owner.")), w)
	far := proximity(positionsOf(index.Tokens("The refund is paid. "+strings.Repeat("Other words here. ", 20)+"The queue has an owner.")), w)
	none := proximity(positionsOf(index.Tokens("Nothing of the kind.")), w)
	if !(near > far && far > none && none == 0) {
		t.Errorf("proximity near %.3f, far %.3f, none %.3f", near, far, none)
	}
}

// Of two sections holding the question's words, the one that holds them
// together comes first, even against one that repeats a word of them.
func TestProximityRanksTogetherFirst(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	filler := strings.Repeat("Unrelated notes about the office plants and the kitchen rota. ", 6)
	put(t, s, map[string]string{
		"pages/apart.md":    page(content.Meta{Title: "Notes A"}, "# Notes A\n\nThe refund rules changed; every refund is logged. "+filler+"The queue was moved to the new owner.\n"),
		"pages/together.md": page(content.Meta{Title: "Notes B"}, "# Notes B\n\n"+filler+"The refund queue was moved to the new owner.\n"),
	})
	res, err := eng.Query(context.Background(), Request{Question: "Who is the new owner of the refund queue?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Path != "pages/together.md" {
		t.Fatalf("want pages/together.md first, got %+v (%s)", res.Results, res.Trace.Reason)
	}
}

func TestMinDistance(t *testing.T) {
	for _, c := range []struct {
		x, y []int32
		want int32
	}{
		{[]int32{1, 10, 30}, []int32{25, 40}, 5},
		{[]int32{5}, []int32{1, 2, 3}, 2},
		{[]int32{0}, nil, 0},
		{[]int32{3, 7}, []int32{4}, 1},
	} {
		if got := minDistance(c.x, c.y); got != c.want {
			t.Errorf("minDistance(%v, %v) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
}
