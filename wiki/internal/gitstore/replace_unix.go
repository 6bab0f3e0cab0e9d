//go:build !windows

package gitstore

import "os"

// replaceFile renames from to to, replacing to atomically when it exists.
func replaceFile(from, to string) error { return os.Rename(from, to) }

// readReplaced reads a file that writers replace by renaming (a ref).
func readReplaced(p string) ([]byte, error) { return os.ReadFile(p) }
