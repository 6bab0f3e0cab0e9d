package wiki

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteStateFile: the file is replaced whole, its folder made; a
// failed write leaves the old file and no temporary file behind.
func TestWriteStateFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "state.json")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := WriteStateFile(p, write("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteStateFile(p, write("two")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := WriteStateFile(p, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if data, err := os.ReadFile(p); err != nil || string(data) != "two" {
		t.Fatalf("state = %q, %v; want the last whole write", data, err)
	}
	if es, _ := os.ReadDir(filepath.Dir(p)); len(es) != 1 {
		t.Fatalf("folder holds %d files, want only the state file", len(es))
	}
}
