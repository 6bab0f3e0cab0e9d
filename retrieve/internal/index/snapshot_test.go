package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A snapshot reads what the writer has applied, while the writer holds the
// directory, and stays at its commit until opened again.
func TestSnapshotBesideWriter(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	apply(t, w, "c1", []Doc{{ID: "pages/a.md", Path: "pages/a.md", Type: "page", Title: "Alpha"}})

	if got := Holder(dir); got != os.Getpid() {
		t.Errorf("Holder = %d, want this process, %d", got, os.Getpid())
	}
	snap, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if got := snap.Commit(); got != "c1" {
		t.Fatalf("snapshot Commit = %q, want c1", got)
	}
	if hits := hitsFor(t, snap, Query{Text: "alpha"}); len(hits) != 1 || hits[0].Path != "pages/a.md" {
		t.Fatalf("snapshot hits = %+v", hits)
	}
	if err := snap.Apply(t.Context(), "c9", nil, []string{"pages/a.md"}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Apply on a snapshot = %v, want ErrReadOnly", err)
	}

	apply(t, w, "c2", []Doc{{ID: "pages/b.md", Path: "pages/b.md", Type: "page", Title: "Beta"}}, "pages/a.md")
	if got := snap.Commit(); got != "c1" {
		t.Errorf("open snapshot moved to %q", got)
	}
	if hits := hitsFor(t, snap, Query{Text: "alpha"}); len(hits) != 1 {
		t.Errorf("open snapshot lost its documents: %+v", hits)
	}
	again, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := again.Commit(); got != "c2" {
		t.Fatalf("reopened snapshot Commit = %q, want c2", got)
	}
	if hits := hitsFor(t, again, Query{Text: "alpha beta"}); len(hits) != 1 || hits[0].Path != "pages/b.md" {
		t.Fatalf("reopened snapshot hits = %+v", hits)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := snap.Search(t.Context(), Query{Text: "alpha"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close = %v, want ErrClosed", err)
	}
}

func TestSnapshotRefusesWhatIsNotAnIndex(t *testing.T) {
	if _, err := OpenSnapshot(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing dir: %v, want ErrNotExist", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, markerName), []byte("pt full-text index (bluge), format 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSnapshot(dir); !errors.Is(err, ErrCorrupt) {
		t.Errorf("old format: %v, want ErrCorrupt", err)
	}
}
