package index

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An open reads a segment's bytes only the first time: the segments it
// checked are listed with their size and time, and a later open of the
// same files only stats them. A segment changed since (other bytes, a new
// time) is read again and its damage reported.
func TestSegmentsAreCheckedOnce(t *testing.T) {
	if !probeable {
		t.Skip("segments are checked only where bluge's lock can be probed")
	}
	dir := onePageIndex(t)
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	list, err := os.ReadFile(filepath.Join(dir, verifiedName))
	if err != nil {
		t.Fatalf("no list of checked segments: %v", err)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment")
	}
	for _, s := range segs {
		if !strings.Contains(string(list), filepath.Base(s)+" ") {
			t.Errorf("%s is not listed as checked:\n%s", filepath.Base(s), list)
		}
	}

	// Damage that keeps the size and the time of a listed segment is not
	// looked for again: the open trusts the list and does not read it.
	seg := segs[0]
	fi, _ := os.Stat(seg)
	data, _ := os.ReadFile(seg)
	bad := append([]byte(nil), data...)
	bad[len(bad)-1] ^= 0xff // the stored checksum itself: bluge never reads it
	os.WriteFile(seg, bad, 0o600)
	os.Chtimes(seg, fi.ModTime(), fi.ModTime())
	ix, err = Open(dir)
	if err != nil {
		t.Fatalf("open with the segment listed: %v, want no read of it", err)
	}
	ix.Close()

	// A new time is a changed file: it is read, and its damage found.
	os.Chtimes(seg, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("open with a changed segment: %v, want ErrCorrupt", err)
	}
}
