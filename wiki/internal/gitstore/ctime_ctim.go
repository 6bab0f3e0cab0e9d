//go:build linux || openbsd || dragonfly

package gitstore

import "syscall"

// ctime is the inode change time git records in an index entry.
func ctime(st *syscall.Stat_t) (sec, nsec int64) { return int64(st.Ctim.Sec), int64(st.Ctim.Nsec) }
