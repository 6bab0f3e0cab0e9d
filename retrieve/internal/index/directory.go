package index

import (
	"io"
	"time"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/index"
	segment "github.com/blugelabs/bluge_segment_api"
)

// loadPatience bounds how long loading a segment waits for its file's lock.
const loadPatience = 2 * time.Second

// patientDirectory is bluge's file-system directory, except that loading a
// segment waits out a lock held for a moment. bluge writes a segment under
// an exclusive flock and loads it straight after under a shared one, without
// waiting. A child this process forks (git, for one) holds a copy of every
// open descriptor from fork until exec, and with it the writer's lock, so
// the load right after a write is refused now and then on a busy machine,
// which failed the batch that wrote it.
type patientDirectory struct {
	index.Directory
	patience time.Duration
}

// Load loads the item, retrying with growing pauses while its file is locked
// by another open file description, up to the directory's patience.
func (d patientDirectory) Load(kind string, id uint64) (*segment.Data, io.Closer, error) {
	deadline := time.Now().Add(d.patience)
	for pause := time.Millisecond; ; pause *= 2 {
		data, closer, err := d.Directory.Load(kind, id)
		if err == nil || !isLockHeld(err) || time.Now().After(deadline) {
			return data, closer, err
		}
		time.Sleep(min(pause, 100*time.Millisecond))
	}
}

// diskConfig is the configuration of the index kept in dir.
func diskConfig(dir string) bluge.Config {
	return config(bluge.DefaultConfigWithDirectory(func() index.Directory {
		return patientDirectory{Directory: index.NewFileSystemDirectory(dir), patience: loadPatience}
	}))
}
