package wiki

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteStateFile replaces path, a file of derived state (an index, a
// cache), with what write writes: into a temporary file beside it, then
// renamed into place, so that a reader or a crash sees the old file or
// the new one, never part of one. Its folder is made when missing. On an
// error the temporary file is removed and path is as it was; callers of
// derived state may ignore the error, since the next run rebuilds it.
func WriteStateFile(path string, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 64<<10)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
