//go:build linux || openbsd || dragonfly

package gitstore

import (
	"os"
	"syscall"
)

// statOf reads the status git records from fi (st_ctim on these systems).
func statOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{ctimeSec: int64(st.Ctim.Sec), ctimeNsec: int64(st.Ctim.Nsec), dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid}, true
}
