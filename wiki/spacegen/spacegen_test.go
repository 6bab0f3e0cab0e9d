package spacegen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	s, err := spacegen.Generate(context.Background(), dir, spacegen.Options{Pages: 120, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := contentPages(t, s); n != 120 {
		t.Fatalf("want 120 content pages, got %d", n)
	}
	out, err := exec.Command("git", "-C", dir, "fsck", "--strict").CombinedOutput()
	if err != nil {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
}

// Fill takes the same zero values as Generate: an existing space grows by
// o.Pages pages with only the count given.
func TestFillWithDefaults(t *testing.T) {
	ctx := context.Background()
	s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: "team", Clock: wiki.SteppingClock(time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := spacegen.Fill(ctx, s, spacegen.Options{Pages: 30}); err != nil {
		t.Fatal(err)
	}
	if n := contentPages(t, s); n != 30 {
		t.Fatalf("want 30 content pages, got %d", n)
	}
}

// contentPages counts the sources, summaries and concept pages of s at its
// head.
func contentPages(t *testing.T, s *wiki.Space) int {
	t.Helper()
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := s.Pages(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pages {
		if strings.HasPrefix(p.Path, "sources/") || strings.HasPrefix(p.Path, "summaries/") || strings.HasPrefix(p.Path, "pages/") {
			n++
		}
	}
	return n
}

func BenchmarkGenerate1k(b *testing.B) {
	for b.Loop() {
		s, err := spacegen.Generate(context.Background(), b.TempDir(), spacegen.Options{Pages: 1000})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

func TestWriteCorpus(t *testing.T) {
	dir := t.TempDir()
	if err := spacegen.WriteCorpus(dir, spacegen.Options{Pages: 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 20 {
		t.Fatalf("%d files, want 20", len(es))
	}
	total := 0
	for _, e := range es {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "# ") || strings.Count(string(data), "](") != 3 {
			t.Errorf("%s: want a title and three links:\n%s", e.Name(), data)
		}
		total += len(data)
	}
	if avg := total / len(es); avg < 2500 || avg > 6000 {
		t.Errorf("files of %d bytes on average, want about 4 KB", avg)
	}
}
