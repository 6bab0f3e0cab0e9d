package ingest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestDeriveTopicsHoldsNoText derives the topics of 1,000 files of 12 KB
// that no folder or link places, so that every one is read for its
// vocabulary and its subject, and checks that the heap at any point grows
// by a small fraction of the text read: derivation keeps the words it
// uses, by number, and no file's text. Each file repeats a word of its
// own, which a lexicon keeping slices of the texts would hold them by.
func TestDeriveTopicsHoldsNoText(t *testing.T) {
	const files, size = 1000, 12 << 10
	subjects := strings.Fields("ledger quorum replica shard query deploy rollback schema migration latency budget alert cache")
	words := strings.Fields("we then it was a in on for with by from that this they move keep wait")
	docs := make([]*corpusDoc, files)
	for i := range docs {
		docs[i] = &corpusDoc{rel: fmt.Sprintf("f%04d.md", i), title: fmt.Sprintf("%s %s", subjects[i%len(subjects)], subjects[(i/len(subjects))%len(subjects)]), headings: []string{subjects[(i*7)%len(subjects)]}}
	}
	text := func(d *corpusDoc) []byte {
		var i uint64
		fmt.Sscanf(d.rel, "f%04d.md", &i)
		r := rand.New(rand.NewPCG(i, 3))
		own := fmt.Sprintf("zq%sx", strings.Repeat(string(rune('a'+i%26)), 1+int(i/26)))
		var b strings.Builder
		for b.Len() < size {
			if r.IntN(40) == 0 {
				b.WriteString(own)
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
			b.WriteByte(' ')
		}
		return []byte(b.String())
	}
	before := heapInUse()
	var mu sync.Mutex
	var read int
	var peak uint64
	err := deriveTopics(docs, "corpus", func(d *corpusDoc) ([]byte, error) {
		mu.Lock()
		if read++; read%125 == 0 {
			peak = max(peak, heapInUse())
		}
		mu.Unlock()
		return text(d), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	peak = max(peak, heapInUse())
	if read != files {
		t.Fatalf("derivation read %d texts, want each of the %d once", read, files)
	}
	grown := uint64(0)
	if peak > before {
		grown = peak - before
	}
	total := uint64(files * size)
	t.Logf("read %d MB of text, the heap grew by at most %d KB", total>>20, grown>>10)
	if grown > total/16 {
		t.Errorf("deriving topics from %d MB of text grew the heap by %d MB: it holds text", total>>20, grown>>20)
	}
	for _, d := range docs {
		if len(d.topics) != 1 || d.topics[0] == "corpus" {
			t.Fatalf("%s: topics %q, want one named by its subject", d.rel, d.topics)
		}
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
