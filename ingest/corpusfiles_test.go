package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptwiki/pt/wiki"
)

// TestCorpusFileChanged checks that a file read again for its text must be
// the revision first read: a file edited during an import stops it rather
// than mixing two revisions in one page.
func TestCorpusFileChanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	first := []byte("---\ntitle: A\n---\n# A\n\nText.\n")
	if err := os.WriteFile(p, first, 0o644); err != nil {
		t.Fatal(err)
	}
	f := &corpusFiles{abs: dir}
	d := &corpusDoc{rel: "a.md", blob: wiki.BlobID(first)}
	body, err := f.body(d)
	if err != nil || string(body) != "# A\n\nText.\n" {
		t.Fatalf("body %q, %v; want the text after the frontmatter", body, err)
	}
	if err := os.WriteFile(p, []byte("# A\n\nOther text.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.body(d); !errors.Is(err, errChanged) {
		t.Fatalf("reading a changed file: %v, want errChanged", err)
	}
}
