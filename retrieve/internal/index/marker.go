package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A marker file says that a directory is a pt index and which layout of fields
// it uses. Bluge itself opens any directory, ignoring files it does not know,
// so without the marker a wrong path would silently become an empty index, and
// an index written by an older pt (other fields, other analysis) would answer
// queries wrongly instead of being rebuilt.
const (
	markerName = "pt-index"
	// formatVersion changes whenever fields, analysis or the set of pages
	// indexed change (5: documents store their field lengths and the
	// metadata the live totals); an index of another version is reported
	// as ErrCorrupt so that callers rebuild it.
	formatVersion = 5
	pidName       = "bluge.pid" // bluge's lock file, present even in a fresh dir
)

func markerText() string {
	return fmt.Sprintf("pt full-text index (bluge), format %d\n", formatVersion)
}

// checkMarker reports whether dir is new (nothing but perhaps bluge's lock
// file in it), or returns an error wrapping ErrCorrupt if it is not an index of
// this format.
func checkMarker(dir string) (fresh bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, markerName))
	switch {
	case err == nil:
		if string(b) != markerText() {
			return false, fmt.Errorf("%w: format marker %q, want %q", ErrCorrupt, b, markerText())
		}
		return false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Name() != pidName {
			return false, fmt.Errorf("%w: %s holds %s but no %s marker", ErrCorrupt, dir, e.Name(), markerName)
		}
	}
	return true, nil
}

// writeMarker is called with bluge's lock held and before the first batch, so
// an index with data always has a marker; a crash before it is written leaves
// a directory that is either still fresh or reported corrupt, and rebuilt.
func writeMarker(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, markerName), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(markerText()); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
