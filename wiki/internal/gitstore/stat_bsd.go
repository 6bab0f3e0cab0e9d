//go:build darwin || freebsd || netbsd

package gitstore

import (
	"os"
	"syscall"
)

// statOf reads the status git records from fi (st_ctimespec on these
// systems).
func statOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{ctimeSec: int64(st.Ctimespec.Sec), ctimeNsec: int64(st.Ctimespec.Nsec), dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid}, true
}
