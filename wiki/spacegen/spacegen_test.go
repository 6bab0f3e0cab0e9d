package spacegen_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

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
	head, _ := s.Head(context.Background())
	pages, err := s.Pages(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	content := 0
	for _, p := range pages {
		if strings.HasPrefix(p.Path, "sources/") || strings.HasPrefix(p.Path, "summaries/") || strings.HasPrefix(p.Path, "pages/") {
			content++
		}
	}
	if content != 120 {
		t.Fatalf("want 120 content pages, got %d", content)
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
	s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: "team"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := spacegen.Fill(ctx, s, spacegen.Options{Pages: 30}); err != nil {
		t.Fatal(err)
	}
	head, _ := s.Head(ctx)
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
	if n != 30 {
		t.Fatalf("want 30 content pages, got %d", n)
	}
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
