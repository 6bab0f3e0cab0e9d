package gitstore

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// object is an object built in memory and not yet known to be on disk.
type object struct {
	hash Hash
	typ  objectType
	data []byte
}

// packThreshold is the number of new objects above which a batch is written
// as one pack instead of loose objects. A pack costs the same four fsyncs
// whatever it holds (the pack, its index and their directory twice), loose
// objects two each (the file and its directory), so every batch but a
// single object is a pack: an ingest's ten objects took some twenty fsyncs
// as loose objects, most of its time on a busy disk. The packs a batch
// leaves are small; `git gc` merges them as it merges git's own.
const packThreshold = 1

// zlibPools recycle a store's compressors; a fresh zlib.Writer allocates
// about 250 KB.
type zlibPools struct {
	// loose compresses loose objects at the default level.
	loose sync.Pool
	// pack compresses the objects of packs. A pack holds a large batch (an
	// import of thousands of files) and is compressed at the fastest
	// level: a third of the CPU of the default level for a pack about a
	// tenth larger, which the next `git gc` recompresses anyway.
	pack sync.Pool
}

func newZlibPools() *zlibPools {
	z := &zlibPools{}
	z.loose.New = func() any { return zlib.NewWriter(nil) }
	z.pack.New = func() any {
		zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
		return zw
	}
	return z
}

// writeObjects makes every object durable: written, fsynced, renamed into
// place and its directory fsynced. Only after it returns may a ref point at
// any of them (DESIGN.md §4: objects synced to disk before the ref moves).
func (s *Store) writeObjects(objs []object) error {
	seen := make(map[Hash]bool, len(objs))
	todo := objs[:0:0]
	for _, o := range objs {
		if seen[o.hash] {
			continue
		}
		seen[o.hash] = true
		if s.freshenLoose(o.hash) {
			continue
		}
		todo = append(todo, o)
	}
	if len(todo) == 0 {
		return nil
	}
	if len(todo) > packThreshold {
		return s.writePack(todo)
	}
	return s.writeLooseObjects(todo)
}

func (s *Store) objectsDir() string { return filepath.Join(s.commonDir, "objects") }

func (s *Store) loosePath(h Hash) string {
	x := h.String()
	return filepath.Join(s.objectsDir(), x[:2], x[2:])
}

// freshenLoose reports whether h already exists as a loose object, touching
// it the way git does so that a concurrent `git gc` does not prune an object
// we are about to reference.
func (s *Store) freshenLoose(h Hash) bool {
	p := s.loosePath(h)
	if _, err := os.Stat(p); err != nil {
		return false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return true
}

func (s *Store) writeLooseObjects(objs []object) error {
	var (
		mu       sync.Mutex
		dirs     = map[string]bool{}
		firstErr error
		wg       sync.WaitGroup
		work     = make(chan object)
	)
	workers := min(8, len(objs))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o := range work {
				d, newDir, err := s.writeLoose(o)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if d != "" {
					dirs[d] = true
				}
				if newDir {
					dirs[s.objectsDir()] = true
				}
				mu.Unlock()
			}
		}()
	}
	for _, o := range objs {
		work <- o
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	// Each directory is fsynced, all at once: they are independent, and
	// one after the other they cost a disk flush each.
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	errs := make([]error, len(list))
	var swg sync.WaitGroup
	for i, d := range list {
		swg.Go(func() {
			if err := s.fsyncDir(d); err != nil {
				errs[i] = fmt.Errorf("gitstore: sync %s: %w", d, err)
			}
		})
	}
	swg.Wait()
	return errors.Join(errs...)
}

// writeLoose writes one loose object and returns the directory that now
// needs an fsync and whether that directory was created.
func (s *Store) writeLoose(o object) (dir string, newDir bool, err error) {
	final := s.loosePath(o.hash)
	dir = filepath.Dir(final)
	if err := os.Mkdir(dir, 0o755); err == nil {
		newDir = true
	} else if !errors.Is(err, os.ErrExist) {
		return "", false, fmt.Errorf("gitstore: write object %s: %w", o.hash, err)
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return "", newDir, fmt.Errorf("gitstore: write object %s: %w", o.hash, err)
	}
	tmp := f.Name()
	fail := func(err error) (string, bool, error) {
		f.Close()
		os.Remove(tmp)
		return "", newDir, fmt.Errorf("gitstore: write object %s: %w", o.hash, err)
	}
	bw := bufio.NewWriter(f)
	zw := s.zlib.loose.Get().(*zlib.Writer)
	zw.Reset(bw)
	fmt.Fprintf(zw, "%s %d\x00", o.typ, len(o.data))
	zw.Write(o.data)
	err = zw.Close()
	s.zlib.loose.Put(zw)
	if err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := s.fsync(f); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o444); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", newDir, fmt.Errorf("gitstore: write object %s: %w", o.hash, err)
	}
	if err := replaceFile(tmp, final); err != nil {
		os.Remove(tmp)
		return "", newDir, fmt.Errorf("gitstore: write object %s: %w", o.hash, err)
	}
	return dir, newDir, nil
}

// writePack writes objs as one undeltified pack with its v2 index (see
// Pack.finish for the order that makes it crash-safe).
func (s *Store) writePack(objs []object) error {
	p, err := s.NewPack()
	if err != nil {
		return err
	}
	defer p.Discard()
	for _, o := range objs {
		if err := p.addObject(o); err != nil {
			return err
		}
	}
	return p.finish()
}

// packEntryHeader is the type-and-size varint that starts a pack entry.
func packEntryHeader(t objectType, size int) []byte {
	var code byte
	switch t {
	case commitObject:
		code = 1
	case treeObject:
		code = 2
	case blobObject:
		code = 3
	}
	b := []byte{code<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// readObject returns an object's type and content, read by s.objs, else
// by go-git (an alternate repository, a version 1 pack index). go-git caches the list of
// packs, so after a miss (a `git gc` may have packed and pruned loose
// objects since) it rescans once before reporting ErrNotFound; a pack whose
// index is not there yet (git writes the .pack first) is waited for briefly.
// The caller holds s.mu.
func (s *Store) readObject(h Hash) (objectType, []byte, error) {
	if t, data, ok := s.objs.read(h); ok {
		return t, data, nil
	}
	get := func() (plumbing.EncodedObject, error) {
		return s.st.EncodedObject(plumbing.AnyObject, plumbing.Hash(h))
	}
	o, err := get()
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.st.Reindex()
		o, err = get()
	}
	for try := 0; try < 5 && errors.Is(err, dotgit.ErrPackfileNotFound); try++ {
		time.Sleep(20 * time.Millisecond) // a git command is between the .pack and its .idx
		s.st.Reindex()
		o, err = get()
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, ErrNotFound)
	}
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
	}
	r, err := o.Reader()
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
	}
	defer r.Close()
	data := make([]byte, 0, o.Size())
	data, err = readAllInto(r, data)
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
	}
	return objectType(o.Type().String()), data, nil
}

// readTyped is readObject that insists on a type.
func (s *Store) readTyped(h Hash, want objectType) ([]byte, error) {
	t, data, err := s.readObject(h)
	if err != nil {
		return nil, err
	}
	if t != want {
		return nil, fmt.Errorf("gitstore: object %s is a %s, not a %s", h, t, want)
	}
	return data, nil
}

func readAllInto(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
