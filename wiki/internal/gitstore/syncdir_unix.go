//go:build !windows

package gitstore

import "os"

// syncDir fsyncs a directory so that renames and creations in it survive a
// power loss.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
