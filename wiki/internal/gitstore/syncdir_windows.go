package gitstore

// syncDir does nothing on Windows: a directory cannot be flushed there
// (FlushFileBuffers on a directory handle is refused), and NTFS journals
// renames and creations itself.
func syncDir(string) error { return nil }
