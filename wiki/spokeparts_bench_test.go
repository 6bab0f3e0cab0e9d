package wiki_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// BenchmarkIngestIntoLargeTopic adds one page at a time to a topic of 400
// pages (10 full parts at the default limit of 40), each sorting somewhere
// among the existing titles, and reports the spoke files each batch writes:
// the part the page falls in (two when it splits) and the spoke itself.
//
//	go test ./wiki/ -run '^$' -bench IngestIntoLargeTopic -benchtime 100x
func BenchmarkIngestIntoLargeTopic(b *testing.B) {
	ctx := context.Background()
	s, _, err := wiki.Init(ctx, b.TempDir(), wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "seed", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
		for i := range 400 {
			if _, err := tx.Put(ctx, fmt.Sprintf("pages/entry-%03d.md", i), page(fmt.Sprintf("Entry %03d", i*10), "handbook"), wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	spokes := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := (i*37)%3990 + 1 // between two existing titles, spread over the topic
		res, err := s.Apply(ctx, wiki.Batch{Kind: wiki.KindIngest, Title: "add", ApprovedBy: "x"}, func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.Put(ctx, fmt.Sprintf("pages/new-%04d.md", i), page(fmt.Sprintf("Entry %03d+%d", n/10, i), "handbook"), wiki.RolePage)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range res.Pages {
			if w.Role == wiki.RoleSpoke {
				spokes++
			}
		}
	}
	b.ReportMetric(float64(spokes)/float64(b.N), "spoke-files/op")
}
