package gitstore

// fileStat is the part of a file's status that git records in an index
// entry besides its modification time and size, so that `git status` can
// tell an unchanged file without reading it. Where the platform has no such
// field the value is zero, as Git for Windows writes it.
type fileStat struct {
	ctimeSec, ctimeNsec int64
	dev, ino, uid, gid  uint32
}
