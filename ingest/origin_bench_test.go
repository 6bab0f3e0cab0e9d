package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptwiki/pt/ingest"
)

// BenchmarkIngestFile ingests a new file into a space of 10,000 pages, so
// each ingest looks for the source that records the file as its origin
// (through the origin index, built on the first ingest and then brought
// up to date from the tree diff). Compare with BenchmarkIngest.
//
//	go test ./ingest/ -run '^$' -bench IngestFile -benchtime 20x
func BenchmarkIngestFile(b *testing.B) {
	s := benchSpace(b, 10000)
	ctx := context.Background()
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		name := filepath.Join(dir, fmt.Sprintf("standup-%d.md", i))
		if err := os.WriteFile(name, fmt.Appendf(nil, standup+"\nRun %d.\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		_, err := ingest.Ingest(ctx, s, ingest.Source{Title: fmt.Sprintf("Benchmark standup %d", i), File: name,
			Body: fmt.Appendf(nil, standup+"\nRun %d.\n", i), Kind: "meeting-notes", ApprovedBy: "dana", Author: dana, When: t0})
		if err != nil {
			b.Fatal(err)
		}
	}
}
