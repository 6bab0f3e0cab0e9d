//go:build !windows

package gitstore

import (
	"os"
	"syscall"
)

// statOf reads the status git records from fi.
func statOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	sec, nsec := ctime(st)
	return fileStat{ctimeSec: sec, ctimeNsec: nsec, dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid}, true
}
