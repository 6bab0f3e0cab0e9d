package index

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestZZDebugPlan(t *testing.T) {
	if os.Getenv("PT_INDEX_BENCH_DIR") == "" {
		t.Skip()
	}
	ix := benchIndex(&testing.B{})
	r, release, _ := ix.reader()
	defer release()
	c := newCorpus(2)
	for i := 0; i < 15; i++ {
		q := c.question()
		terms := Terms(q)
		var dfs []int
		for _, tm := range terms {
			it, _ := r.DictionaryIterator("body", nil, []byte(tm), []byte(tm+"\x00"))
			e, _ := it.Next()
			if e != nil {
				dfs = append(dfs, int(e.Count()))
			}
		}
		sort.Ints(dfs)
		fmt.Println(len(terms), dfs)
	}
}
