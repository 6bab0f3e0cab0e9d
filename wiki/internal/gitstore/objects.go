package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
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

// zlibPool recycles compressors; a fresh zlib.Writer allocates ~250 KB.
var zlibPool = sync.Pool{New: func() any { return zlib.NewWriter(nil) }}

// packZlibPool recycles the compressors of packs. A pack holds a large
// batch (an import of thousands of files) and is compressed at the fastest
// level: a third of the CPU of the default level for a pack about a tenth
// larger, which the next `git gc` recompresses anyway.
var packZlibPool = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return zw
}}

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
		if err := s.writePack(todo); err != nil {
			return err
		}
		s.st.Reindex() // go-git caches the pack list; make it see the new pack
		return nil
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
	zw := zlibPool.Get().(*zlib.Writer)
	zw.Reset(bw)
	fmt.Fprintf(zw, "%s %d\x00", o.typ, len(o.data))
	zw.Write(o.data)
	err = zw.Close()
	zlibPool.Put(zw)
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

// writePack writes objs as one undeltified pack with its v2 index. The index
// is renamed into place last: git and go-git find packs by their .idx, so a
// crash leaves at worst an orphan tmp file or a pack nobody sees yet.
func (s *Store) writePack(objs []object) error {
	packDir := filepath.Join(s.objectsDir(), "pack")
	if err := os.MkdirAll(packDir, 0o755); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	pf, err := os.CreateTemp(packDir, "tmp_pack_")
	if err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	tmpPack := pf.Name()
	defer os.Remove(tmpPack) // no-op after the rename
	defer pf.Close()

	sum := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(pf, sum), 1<<16)
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	binary.BigEndian.PutUint32(hdr[8:], uint32(len(objs)))
	bw.Write(hdr[:])

	type idxEntry struct {
		hash   Hash
		crc    uint32
		offset uint64
	}
	entries := make([]idxEntry, len(objs))
	offset := uint64(len(hdr))
	var werr error
	compressPack(objs, func(i int, packed []byte) {
		if werr != nil {
			return
		}
		entries[i] = idxEntry{objs[i].hash, crc32.ChecksumIEEE(packed), offset}
		offset += uint64(len(packed))
		_, werr = bw.Write(packed)
	})
	if werr != nil {
		return fmt.Errorf("gitstore: write pack: %w", werr)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	packSum := sum.Sum(nil)
	if _, err := pf.Write(packSum); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	if err := s.fsync(pf); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}

	sort.Slice(entries, func(i, j int) bool { return bytes.Compare(entries[i].hash[:], entries[j].hash[:]) < 0 })
	xf, err := os.CreateTemp(packDir, "tmp_idx_")
	if err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	tmpIdx := xf.Name()
	defer os.Remove(tmpIdx)
	defer xf.Close()
	isum := sha1.New()
	iw := bufio.NewWriterSize(io.MultiWriter(xf, isum), 1<<16)
	u32 := func(v uint32) { var b [4]byte; binary.BigEndian.PutUint32(b[:], v); iw.Write(b[:]) }
	iw.Write([]byte{0xff, 't', 'O', 'c'})
	u32(2)
	var fan [256]uint32
	for _, e := range entries {
		fan[e.hash[0]]++
	}
	var cum uint32
	for i := range fan {
		cum += fan[i]
		u32(cum)
	}
	for _, e := range entries {
		iw.Write(e.hash[:])
	}
	for _, e := range entries {
		u32(e.crc)
	}
	var large []uint64
	for _, e := range entries {
		if e.offset < 1<<31 {
			u32(uint32(e.offset))
		} else {
			u32(1<<31 | uint32(len(large)))
			large = append(large, e.offset)
		}
	}
	for _, off := range large {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], off)
		iw.Write(b[:])
	}
	iw.Write(packSum)
	if err := iw.Flush(); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if _, err := xf.Write(isum.Sum(nil)); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := s.fsync(xf); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	base := filepath.Join(packDir, fmt.Sprintf("pack-%x", packSum))
	pf.Chmod(0o444)
	xf.Chmod(0o444)
	// Both are closed before their renames: Windows refuses to rename a
	// file that is open.
	if err := xf.Close(); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := pf.Close(); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	// git finds packs by their .idx and ignores an .idx without its .pack;
	// go-git finds them by the .pack and fails on a .pack without its .idx.
	// So the .idx goes first: a crash between the renames leaves an orphan
	// .idx that neither sees.
	if err := replaceFile(tmpIdx, base+".idx"); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := s.fsyncDir(packDir); err != nil {
		return fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := replaceFile(tmpPack, base+".pack"); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	if err := s.fsyncDir(packDir); err != nil {
		return fmt.Errorf("gitstore: write pack: %w", err)
	}
	return nil
}

// packChunk is the number of objects a worker compresses at a time: large
// enough to amortise the hand-over, small enough that the writer is never
// far behind the compressors and memory stays at a few chunks.
const packChunk = 64

// compressPack compresses objs into pack entries (header and zlib stream)
// on every core and hands each to emit in order, as soon as it and all
// before it are ready.
func compressPack(objs []object, emit func(i int, packed []byte)) {
	nchunks := (len(objs) + packChunk - 1) / packChunk
	ready := make([]chan [][]byte, nchunks)
	for c := range ready {
		ready[c] = make(chan [][]byte, 1)
	}
	workers := min(runtime.GOMAXPROCS(0), nchunks)
	// A worker may run ahead of the writer by at most this many chunks.
	ahead := make(chan struct{}, 2*workers)
	var next atomic.Int64
	for range workers {
		go func() {
			zw := packZlibPool.Get().(*zlib.Writer)
			defer packZlibPool.Put(zw)
			for {
				ahead <- struct{}{}
				c := int(next.Add(1)) - 1
				if c >= nchunks {
					<-ahead
					return
				}
				lo, hi := c*packChunk, min((c+1)*packChunk, len(objs))
				out := make([][]byte, 0, hi-lo)
				for _, o := range objs[lo:hi] {
					var buf bytes.Buffer
					buf.Grow(len(o.data)/2 + 64)
					buf.Write(packEntryHeader(o.typ, len(o.data)))
					zw.Reset(&buf)
					zw.Write(o.data)
					zw.Close() // writes to a bytes.Buffer cannot fail
					out = append(out, buf.Bytes())
				}
				ready[c] <- out
			}
		}()
	}
	for c := range nchunks {
		for k, packed := range <-ready[c] {
			emit(c*packChunk+k, packed)
		}
		<-ahead
	}
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

// readObject returns an object's type and content. go-git caches the list of
// packs, so after a miss (a `git gc` may have packed and pruned loose
// objects since) it rescans once before reporting ErrNotFound; a pack whose
// index is not there yet (git writes the .pack first) is waited for briefly.
// The caller holds s.mu.
func (s *Store) readObject(h Hash) (objectType, []byte, error) {
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
