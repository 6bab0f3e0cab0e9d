//go:build darwin || freebsd || netbsd

package gitstore

import "syscall"

// ctime is the inode change time git records in an index entry.
func ctime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)
}
