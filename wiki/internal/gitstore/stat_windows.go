package gitstore

import (
	"os"
	"syscall"
)

// statOf reads the status git records from fi. Windows has no inode change
// time, device, inode or owner ids; Git for Windows records the creation
// time as the change time and zeros for the rest, and so does pt.
func statOf(fi os.FileInfo) (fileStat, bool) {
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return fileStat{}, false
	}
	ns := d.CreationTime.Nanoseconds()
	return fileStat{ctimeSec: ns / 1e9, ctimeNsec: ns % 1e9}, true
}
