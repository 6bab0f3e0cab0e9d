package gitstore

import (
	"bytes"
	"io/fs"
	"os"
	"strings"

	"github.com/go-git/go-billy/v5"
)

// idxReadFS hands go-git each pack index (.idx) already read into memory.
// go-git decodes an index straight from the file, a system call for each
// of the 256 fan-out entries and then for each fan-out bucket of every
// table: about a thousand per index, which on a busy machine cost a cold
// process some 15 ms before its first object at 10,000 pages. One read of
// the whole file turns those into memory copies.
type idxReadFS struct{ billy.Filesystem }

func (f idxReadFS) Open(name string) (billy.File, error) {
	if !strings.HasSuffix(name, ".idx") {
		return f.Filesystem.Open(name)
	}
	full := f.Join(f.Root(), name)
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(full)
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(data), name: name, info: fi}, nil
}

// memFile is a read-only billy.File over bytes in memory.
type memFile struct {
	*bytes.Reader
	name string
	info fs.FileInfo
}

func (m *memFile) Name() string               { return m.name }
func (m *memFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memFile) Write([]byte) (int, error)  { return 0, os.ErrPermission }
func (m *memFile) Truncate(int64) error       { return os.ErrPermission }
func (m *memFile) Lock() error                { return nil }
func (m *memFile) Unlock() error              { return nil }
func (m *memFile) Close() error               { return nil }
