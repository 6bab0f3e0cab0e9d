package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// TestRelatedSymlinkIsRefused: a --related page that the repository holds
// as a symbolic link is refused, and the link stays a link: pt never
// follows or replaces one.
func TestRelatedSymlinkIsRefused(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	pages := filepath.Join(dir, "pages")
	if err := os.MkdirAll(pages, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pages, "real.md"), []byte("---\ntitle: Real\nauthor: {kind: agent, name: scribe}\n---\n# Real\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.md", filepath.Join(pages, "link.md")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "a page and a link to it")
	head := git(t, dir, "rev-parse", "HEAD")
	_, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Replay notes", Body: []byte("# Replay\n\nReplays carry idempotency keys.\n"),
		ApprovedBy: "dana", Author: dana, When: t0, Related: []string{"pages/link.md"}})
	if !errors.Is(err, wiki.ErrSymlink) || !strings.Contains(err.Error(), "pages/link.md") {
		t.Fatalf("err = %v, want one naming pages/link.md as a symbolic link", err)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if fi, err := os.Lstat(filepath.Join(pages, "link.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("pages/link.md is no longer a symbolic link: %v %v", fi, err)
	}
	if mode := git(t, dir, "ls-tree", "HEAD", "pages/link.md"); !strings.HasPrefix(mode, "120000") {
		t.Errorf("pages/link.md in HEAD: %s", mode)
	}
}

// TestSlugWithInvisibleCharacters: --slug refuses what a slug made from a
// title strips: bidi overrides and zero-width characters, which make a
// path read as another.
func TestSlugWithInvisibleCharacters(t *testing.T) {
	ctx := context.Background()
	s, dir := newSpace(t, "")
	head := git(t, dir, "rev-parse", "HEAD")
	for _, slug := range []string{"notes\u202egpj.md", "deploy\u200bnotes", "a\u2066b\u2069", "\ufeffnotes"} {
		_, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Notes", Slug: slug, Body: []byte("# Notes\n\nSome text.\n"), ApprovedBy: "dana", Author: dana, When: t0})
		if !errors.Is(err, content.ErrUnsafePath) || !strings.Contains(err.Error(), "invisible format character") {
			t.Errorf("slug %q: err = %v, want an unsafe path with an invisible format character", slug, err)
		}
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if got := content.Slug("notes\u202egpj\u200b"); strings.ContainsAny(got, "\u202e\u200b") {
		t.Errorf("Slug kept an invisible character: %q", got)
	}
}
