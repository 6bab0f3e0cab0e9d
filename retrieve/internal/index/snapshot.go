package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/blugelabs/bluge"
)

// ErrReadOnly is returned by Apply on an index opened with OpenSnapshot.
var ErrReadOnly = errors.New("index opened read-only")

// snapshotTries bounds OpenSnapshot's attempts, 10 ms apart.
const snapshotTries = 10

// OpenSnapshot opens the newest snapshot that the writer of the on-disk index
// in dir has made durable, for reading only. It takes no lock, so it works
// while another process (a server) holds dir: that process keeps the index
// up to date, and a one-shot query beside it can read its work instead of
// indexing the whole space again in memory. The snapshot does not move; a
// caller compares Commit with the head it wants and opens again when the
// writer has moved on. Apply fails with ErrReadOnly.
//
// Bluge's reader takes a shared lock on each file it maps, so the writer
// keeps what an open snapshot reads until the snapshot is closed.
//
// A directory without this format's marker is reported as ErrCorrupt, and a
// missing one as an error wrapping fs.ErrNotExist; neither is repaired here,
// since the directory belongs to its writer.
func OpenSnapshot(dir string) (*Index, error) {
	return guarded(func() (*Index, error) { return openSnapshot(dir) })
}

func openSnapshot(dir string) (*Index, error) {
	b, err := os.ReadFile(filepath.Join(dir, markerName))
	if err != nil {
		return nil, fmt.Errorf("open index snapshot %s: %w", dir, err)
	}
	if string(b) != markerText() {
		return nil, fmt.Errorf("open index snapshot %s: %w: format marker %q", dir, ErrCorrupt, b)
	}
	// The writer holds a file it is writing under an exclusive lock, which
	// bluge's reader (taking shared locks) reports as unusable, and it
	// removes older snapshots as newer ones land: a reader that arrives
	// mid-write can find no snapshot it may open. Such a moment passes.
	var r *bluge.Reader
	for try := 1; ; try++ {
		r, err = bluge.OpenReader(diskConfig(dir))
		if err == nil {
			break
		}
		if try == snapshotTries {
			return nil, fmt.Errorf("open index snapshot %s: %w", dir, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ix := &Index{ro: r, exactPostings: exactPostings}
	if err := ix.loadCommit(); err != nil {
		r.Close()
		return nil, fmt.Errorf("open index snapshot %s: %w: %w", dir, ErrCorrupt, err)
	}
	return ix, nil
}
