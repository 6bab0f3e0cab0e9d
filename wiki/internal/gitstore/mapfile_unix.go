//go:build !windows

package gitstore

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only into memory; release unmaps it. A pack
// index is searched by binary search, which touches a few of its pages:
// mapped, a cold process reads those pages rather than copying every
// index whole (4 MB for the 21 packs of a space of 100,000 pages). git
// never rewrites an index in place, so the mapping stays valid.
func mapFile(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 || fi.Size() != int64(int(fi.Size())) {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
