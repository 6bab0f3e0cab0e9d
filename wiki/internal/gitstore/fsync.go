package gitstore

import "os"

// fsync flushes f to disk. Every fsync of a batch goes through it or
// fsyncDir, so that a test can count what a batch costs.
func (s *Store) fsync(f *os.File) error {
	if s.synced != nil {
		s.synced(f.Name())
	}
	return f.Sync()
}

// fsyncDir flushes a directory's entries (creations, renames) to disk.
func (s *Store) fsyncDir(dir string) error {
	if s.synced != nil {
		s.synced(dir)
	}
	return syncDir(dir)
}
