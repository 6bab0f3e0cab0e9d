package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// objectFiles reads objects straight from the repository's packs and loose
// objects, the way git does: each pack's index read whole once and searched
// in place, an object inflated from positioned reads of its pack, deltas
// applied to their bases. go-git decodes every pack index into tables of
// its own before its first object (at 100,000 pages, about a third of a
// cold query's CPU) and reopens and stats the pack's path for each object;
// it stays the path for what this one does not find (a pack with a version
// 1 index, objects in an alternate repository). It is guarded by the
// store's mutex.
type objectFiles struct {
	objects string // the objects directory
	packs   []*packFile
	listed  bool
	bases   baseCache
	inf     *inflater // reused by every read; nil until the first
}

// packFile is one pack whose index has been read.
type packFile struct {
	path string // the .pack beside the index
	idx  packIndex
}

// read returns an object's type and content; ok is false when no pack or
// loose object holds it, or it could not be read here (go-git then tries).
func (o *objectFiles) read(h Hash) (t objectType, data []byte, ok bool) {
	if !o.listed {
		o.list()
	}
	open := openPacks{}
	defer open.close()
	if t, data, ok := o.readPacked(h, open, 0); ok {
		return t, data, true
	}
	if t, data, err := o.readLooseObject(h); err == nil {
		return t, data, true
	}
	// A pack written since the list was read (by this process, or by a
	// git gc that may also have removed the ones listed).
	if o.list() {
		return o.readPacked(h, open, 0)
	}
	return "", nil, false
}

// readPacked finds h in the listed packs and reads it.
func (o *objectFiles) readPacked(h Hash, open openPacks, depth int) (objectType, []byte, bool) {
	for _, p := range o.packs {
		if off, found := p.idx.find(h); found {
			t, data, err := o.readAt(p, off, open, depth)
			return t, data, err == nil
		}
	}
	return "", nil, false
}

// list reads the index of every pack not read yet and forgets the packs
// whose index is gone; it reports whether anything changed.
func (o *objectFiles) list() bool {
	o.listed = true
	dir := filepath.Join(o.objects, "pack")
	entries, err := os.ReadDir(dir)
	if err != nil {
		changed := len(o.packs) > 0
		o.packs = nil
		return changed
	}
	have := make(map[string]*packFile, len(o.packs))
	for _, p := range o.packs {
		have[p.path] = p
	}
	var packs []*packFile
	changed := false
	for _, e := range entries {
		base, isIdx := strings.CutSuffix(e.Name(), ".idx")
		if !isIdx || !strings.HasPrefix(base, "pack-") {
			continue
		}
		path := filepath.Join(dir, base+".pack")
		if p := have[path]; p != nil {
			packs = append(packs, p)
			delete(have, path)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if idx, ok := parsePackIndex(data); ok {
			packs = append(packs, &packFile{path: path, idx: idx})
			changed = true
		}
	}
	if len(have) > 0 {
		changed = true
		o.bases.clear() // offsets of a removed pack must not match a new one's
	}
	o.packs = packs
	return changed
}

// openPacks holds the packs opened while reading one object and its delta
// bases; they are closed after, so that no pack stays open between reads
// (Windows could not delete it when git gc repacks).
type openPacks map[*packFile]*os.File

func (op openPacks) get(p *packFile) (*os.File, error) {
	if f := op[p]; f != nil {
		return f, nil
	}
	f, err := os.Open(p.path)
	if err != nil {
		return nil, err
	}
	op[p] = f
	return f, nil
}

func (op openPacks) close() {
	for _, f := range op {
		f.Close()
	}
}

// Pack entry types.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxDeltaDepth bounds a chain of deltas (git gc writes at most 50).
const maxDeltaDepth = 1000

var errBadPackEntry = errors.New("malformed pack entry")

// readAt reads the object at offset off of pack p, resolving deltas.
func (o *objectFiles) readAt(p *packFile, off int64, open openPacks, depth int) (objectType, []byte, error) {
	if depth > maxDeltaDepth {
		return "", nil, errors.New("delta chain too long")
	}
	if t, data, ok := o.bases.get(p, off); ok {
		if depth == 0 {
			data = bytes.Clone(data) // the caller's to keep; the cache's stays as it is
		}
		return t, data, nil
	}
	f, err := open.get(p)
	if err != nil {
		return "", nil, err
	}
	var hdr [64]byte
	n, err := f.ReadAt(hdr[:], off)
	if n == 0 && err != nil {
		return "", nil, err
	}
	h := hdr[:n]
	typ, size, used := packEntryHead(h)
	if used == 0 {
		return "", nil, errBadPackEntry
	}
	h = h[used:]
	var baseOff int64 = -1
	var baseHash Hash
	switch typ {
	case packCommit, packTree, packBlob, packTag:
		data, err := o.inflateAt(f, off+int64(used), size)
		if err == nil && depth > 0 {
			o.bases.put(p, off, packTypes[typ], data) // the base of the object being read
		}
		return packTypes[typ], data, err
	case packOfsDelta:
		back, n := decodeOffsetVarint(h) // how far before this entry its base is
		rel := int64(back)
		if n == 0 || rel <= 0 || rel > off {
			return "", nil, errBadPackEntry
		}
		baseOff, used = off-rel, used+n
	case packRefDelta:
		if len(h) < 20 {
			return "", nil, errBadPackEntry
		}
		copy(baseHash[:], h[:20])
		used += 20
	default:
		return "", nil, errBadPackEntry
	}
	delta, err := o.inflateAt(f, off+int64(used), size)
	if err != nil {
		return "", nil, err
	}
	var t objectType
	var base []byte
	if baseOff >= 0 {
		t, base, err = o.readAt(p, baseOff, open, depth+1)
	} else if bo, found := p.idx.find(baseHash); found {
		t, base, err = o.readAt(p, bo, open, depth+1)
	} else {
		var ok bool
		if t, base, ok = o.readPacked(baseHash, open, depth+1); !ok {
			err = fmt.Errorf("delta base %s not found", baseHash)
		}
	}
	if err != nil {
		return "", nil, err
	}
	data, err := applyDelta(base, delta)
	if err != nil {
		return "", nil, err
	}
	if depth > 0 {
		o.bases.put(p, off, t, data) // a base of the object being read
	}
	return t, data, nil
}

var packTypes = [...]objectType{packCommit: commitObject, packTree: treeObject, packBlob: blobObject, packTag: "tag"}

// packEntryHead decodes the type-and-size varint that starts a pack entry;
// used is 0 when it does not decode.
func packEntryHead(b []byte) (typ int, size int64, used int) {
	if len(b) == 0 {
		return 0, 0, 0
	}
	c := b[0]
	typ = int(c>>4) & 7
	size = int64(c & 0x0f)
	used = 1
	for shift := 4; c&0x80 != 0; shift += 7 {
		if used >= len(b) || shift > 56 {
			return 0, 0, 0
		}
		c = b[used]
		used++
		size |= int64(c&0x7f) << shift
	}
	return typ, size, used
}

// maxObjectSize bounds what one read inflates (a header claiming more is
// taken for corruption; go-git then tries).
const maxObjectSize = 1 << 30

// inflater is a zlib reader and its input buffer, kept for the next read:
// reads are serial (objectFiles is guarded by the store's mutex) and each
// inflates its stream whole before the next begins.
type inflater struct {
	br *bufio.Reader
	zr io.ReadCloser
}

// inflateAt inflates the zlib stream at off of f, which must hold exactly
// size bytes.
func (o *objectFiles) inflateAt(f *os.File, off, size int64) ([]byte, error) {
	if size < 0 || size > maxObjectSize {
		return nil, errBadPackEntry
	}
	inf := o.inflater()
	inf.br.Reset(io.NewSectionReader(f, off, 1<<62))
	return inflate(inf, size)
}

// inflater returns the reader every read shares.
func (o *objectFiles) inflater() *inflater {
	if o.inf == nil {
		o.inf = &inflater{br: bufio.NewReaderSize(nil, 16<<10)}
	}
	return o.inf
}

// inflate reads a zlib stream of exactly size bytes from inf.br.
func inflate(inf *inflater, size int64) ([]byte, error) {
	if inf.zr == nil {
		zr, err := zlib.NewReader(inf.br)
		if err != nil {
			return nil, err
		}
		inf.zr = zr
	} else if err := inf.zr.(zlib.Resetter).Reset(inf.br, nil); err != nil {
		return nil, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(inf.zr, data); err != nil {
		return nil, err
	}
	// The stream ends where the size says (and its checksum is checked).
	var one [1]byte
	if n, err := inf.zr.Read(one[:]); n != 0 || (err != nil && err != io.EOF) {
		return nil, errors.New("inflated size does not match the header")
	}
	return data, nil
}

// readLooseObject reads objects/xx/yyyy...: a zlib stream of
// "<type> <size>\x00<content>".
func (o *objectFiles) readLooseObject(h Hash) (objectType, []byte, error) {
	x := h.String()
	f, err := os.Open(filepath.Join(o.objects, x[:2], x[2:]))
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	inf := o.inflater()
	inf.br.Reset(f)
	if inf.zr == nil {
		if inf.zr, err = zlib.NewReader(inf.br); err != nil {
			return "", nil, err
		}
	} else if err := inf.zr.(zlib.Resetter).Reset(inf.br, nil); err != nil {
		return "", nil, err
	}
	var head []byte
	var one [1]byte
	for len(head) < 32 {
		if _, err := io.ReadFull(inf.zr, one[:]); err != nil {
			return "", nil, err
		}
		if one[0] == 0 {
			break
		}
		head = append(head, one[0])
	}
	t, n, ok := bytes.Cut(head, []byte{' '})
	size, err := strconv.ParseInt(string(n), 10, 64)
	if !ok || err != nil || size < 0 || size > maxObjectSize {
		return "", nil, errors.New("malformed loose object header")
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(inf.zr, data); err != nil {
		return "", nil, err
	}
	if n, err := inf.zr.Read(one[:]); n != 0 || (err != nil && err != io.EOF) {
		return "", nil, errors.New("loose object longer than its header says")
	}
	return objectType(t), data, nil
}

// applyDelta builds an object from its delta base and a git delta: the
// sizes of base and result, then instructions that copy a range of the
// base or insert literal bytes.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("malformed delta")
	srcSize, n := deltaSize(delta)
	if n == 0 || srcSize != int64(len(base)) {
		return nil, bad
	}
	delta = delta[n:]
	dstSize, n := deltaSize(delta)
	if n == 0 || dstSize > maxObjectSize {
		return nil, bad
	}
	delta = delta[n:]
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		c := delta[0]
		delta = delta[1:]
		switch {
		case c&0x80 != 0:
			var off, size int64
			for i := range 4 {
				if c&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= int64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := range 3 {
				if c&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					size |= int64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > int64(len(base)) {
				return nil, bad
			}
			out = append(out, base[off:off+size]...)
		case c != 0:
			if int(c) > len(delta) {
				return nil, bad
			}
			out = append(out, delta[:c]...)
			delta = delta[c:]
		default:
			return nil, bad
		}
	}
	if int64(len(out)) != dstSize {
		return nil, bad
	}
	return out, nil
}

// deltaSize decodes a size at the start of a delta (little-endian base 128).
func deltaSize(b []byte) (int64, int) {
	var v int64
	for i, shift := 0, 0; i < len(b) && shift < 63; i, shift = i+1, shift+7 {
		v |= int64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// baseCache keeps objects built from deltas, which are the bases of
// longer chains: a tree or page git gc packed as a chain of fifty deltas
// would otherwise be rebuilt from its first base for every read. Two
// generations bounded in bytes; a hit in the older moves up.
type baseCache struct {
	cur, old map[baseKey]baseEntry
	bytes    int
}

type baseKey struct {
	p   *packFile
	off int64
}

type baseEntry struct {
	t    objectType
	data []byte
}

// baseCacheBytes bounds each generation.
const baseCacheBytes = 16 << 20

func (c *baseCache) get(p *packFile, off int64) (objectType, []byte, bool) {
	k := baseKey{p, off}
	if e, ok := c.cur[k]; ok {
		return e.t, e.data, true
	}
	if e, ok := c.old[k]; ok {
		delete(c.old, k)
		c.put(p, off, e.t, e.data)
		return e.t, e.data, true
	}
	return "", nil, false
}

// put keeps data, which the cache's readers share and must not modify.
func (c *baseCache) put(p *packFile, off int64, t objectType, data []byte) {
	if len(data) > baseCacheBytes/4 {
		return
	}
	if c.cur == nil || c.bytes+len(data) > baseCacheBytes {
		c.old, c.cur, c.bytes = c.cur, map[baseKey]baseEntry{}, 0
	}
	c.cur[baseKey{p, off}] = baseEntry{t, data}
	c.bytes += len(data)
}

func (c *baseCache) clear() { c.cur, c.old, c.bytes = nil, nil, 0 }
