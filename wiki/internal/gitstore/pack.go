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
	"sort"
	"sync"
)

// Pack is a pack being written, one object at a time: a batch stages its
// files into it as they come, so that what a batch holds in memory is their
// ids, not their content, however many it writes. It is a temporary file
// (objects/pack/tmp_pack_*) that no reader sees until Finish names it; a
// crash before then leaves that file, which `git gc` removes (git prunes
// tmp_ files in the object directory) and no ref points into.
//
// A Pack is safe for concurrent use.
type Pack struct {
	mu      sync.Mutex
	s       *Store
	f       *os.File
	bw      *bufio.Writer
	crc     hashWriter
	offset  uint64
	entries map[Hash]packEntry
	zw      *zlib.Writer
	done    bool
	err     error
}

// packEntry is where an object lies in the pack.
type packEntry struct {
	offset uint64
	length uint32 // of the entry: header and compressed data
	crc    uint32
	size   uint32 // of the object's content
}

// packHeaderSize is "PACK", the version and the object count.
const packHeaderSize = 12

// hashWriter is a running CRC-32 of what goes through it.
type hashWriter struct{ sum uint32 }

func (h *hashWriter) Write(b []byte) (int, error) {
	h.sum = crc32.Update(h.sum, crc32.IEEETable, b)
	return len(b), nil
}

// NewPack starts a pack in the repository's pack directory.
func (s *Store) NewPack() (*Pack, error) {
	dir := filepath.Join(s.objectsDir(), "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("gitstore: write pack: %w", err)
	}
	f, err := os.CreateTemp(dir, "tmp_pack_")
	if err != nil {
		return nil, fmt.Errorf("gitstore: write pack: %w", err)
	}
	p := &Pack{s: s, f: f, bw: bufio.NewWriterSize(f, 1<<16), entries: map[Hash]packEntry{}, offset: packHeaderSize}
	var hdr [packHeaderSize]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2) // the count is written by Finish
	p.bw.Write(hdr[:])
	p.zw = s.zlib.pack.Get().(*zlib.Writer)
	return p, nil
}

// AddBlob appends a blob and returns its id. A blob already in the pack is
// not written twice.
func (p *Pack) AddBlob(data []byte) (Hash, error) {
	h := hashObject(blobObject, data)
	p.mu.Lock()
	defer p.mu.Unlock()
	return h, p.add(object{hash: h, typ: blobObject, data: data})
}

// Has reports whether the pack holds h.
func (p *Pack) Has(h Hash) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.entries[h]
	return ok
}

// Len is the number of objects in the pack.
func (p *Pack) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries)
}

// addObject appends o.
func (p *Pack) addObject(o object) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.add(o)
}

// add appends o. The caller holds p.mu.
func (p *Pack) add(o object) error {
	if p.err != nil {
		return p.err
	}
	if p.done {
		return errors.New("gitstore: write pack: already finished")
	}
	if _, dup := p.entries[o.hash]; dup {
		return nil
	}
	p.crc.sum = 0
	w := io.MultiWriter(p.bw, &p.crc)
	n, _ := w.Write(packEntryHeader(o.typ, len(o.data)))
	cw := &countWriter{w: w}
	p.zw.Reset(cw)
	p.zw.Write(o.data)
	if err := p.zw.Close(); err != nil {
		p.err = fmt.Errorf("gitstore: write pack: %w", err)
		return p.err
	}
	length := uint64(n) + cw.n
	if length >= 1<<32 || len(o.data) >= 1<<32 {
		p.err = fmt.Errorf("gitstore: write pack: object %s too large", o.hash)
		return p.err
	}
	p.entries[o.hash] = packEntry{offset: p.offset, length: uint32(length), crc: p.crc.sum, size: uint32(len(o.data))}
	p.offset += length
	return nil
}

// countWriter counts what it passes on.
type countWriter struct {
	w io.Writer
	n uint64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += uint64(n)
	return n, err
}

// Blob returns the content of a blob of the pack, read back from disk.
func (p *Pack) Blob(h Hash) ([]byte, error) {
	p.mu.Lock()
	e, ok := p.entries[h]
	f := p.f
	var err error
	if ok && !p.done {
		err = p.bw.Flush()
	}
	p.mu.Unlock()
	if !ok || f == nil {
		return nil, fmt.Errorf("gitstore: object %s: %w", h, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: read pack: %w", err)
	}
	raw := make([]byte, e.length)
	if _, err := f.ReadAt(raw, int64(e.offset)); err != nil {
		return nil, fmt.Errorf("gitstore: read pack: %w", err)
	}
	hdr := 1
	for raw[hdr-1]&0x80 != 0 {
		hdr++
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw[hdr:]))
	if err != nil {
		return nil, fmt.Errorf("gitstore: read pack %s: %w", h, err)
	}
	data := make([]byte, e.size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, fmt.Errorf("gitstore: read pack %s: %w", h, err)
	}
	return data, nil
}

// Discard removes an unfinished pack; after Finish it only closes the
// file. It is safe to call more than once.
func (p *Pack) Discard() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.zw != nil {
		p.s.zlib.pack.Put(p.zw)
		p.zw = nil
	}
	if p.f == nil {
		return
	}
	p.f.Close()
	if !p.done {
		os.Remove(p.f.Name())
	}
	p.f = nil
}

// finish writes the object count and the checksum, fsyncs the pack, writes
// its index and names both, so that the objects are durable and visible
// (DESIGN.md §4: objects synced to disk before the ref moves). The pack
// stays open for Blob until Discard.
func (p *Pack) finish() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.done {
		return nil
	}
	fail := func(err error) error {
		p.err = fmt.Errorf("gitstore: write pack: %w", err)
		return p.err
	}
	if err := p.bw.Flush(); err != nil {
		return fail(err)
	}
	var count [4]byte
	binary.BigEndian.PutUint32(count[:], uint32(len(p.entries)))
	if _, err := p.f.WriteAt(count[:], 8); err != nil {
		return fail(err)
	}
	// The checksum covers the count, known only now: the pack is read
	// back once, from the page cache.
	sum := sha1.New()
	if _, err := io.Copy(sum, io.NewSectionReader(p.f, 0, int64(p.offset))); err != nil {
		return fail(err)
	}
	packSum := sum.Sum(nil)
	if _, err := p.f.WriteAt(packSum, int64(p.offset)); err != nil {
		return fail(err)
	}
	if err := p.s.fsync(p.f); err != nil {
		return fail(err)
	}
	p.done = true
	idx := make([]idxEntry, 0, len(p.entries))
	for h, e := range p.entries {
		idx = append(idx, idxEntry{hash: h, crc: e.crc, offset: e.offset})
	}
	tmp := p.f.Name()
	p.f.Chmod(0o444)
	// Closed before its rename: Windows refuses to rename an open file.
	if err := p.f.Close(); err != nil {
		p.f = nil
		os.Remove(tmp)
		return fail(err)
	}
	p.f = nil
	final, err := p.s.installPack(tmp, idx, packSum)
	if err != nil {
		os.Remove(tmp)
		p.err = err
		return err
	}
	if p.f, err = os.Open(final); err != nil { // for Blob
		return fail(err)
	}
	p.s.st.Reindex() // go-git caches the pack list; make it see the new pack
	return nil
}

// idxEntry is one object of a pack's index.
type idxEntry struct {
	hash   Hash
	crc    uint32
	offset uint64
}

// installPack writes the index of the fsynced, closed pack at tmpPack and
// renames both into place; it returns the pack's final path. The index is
// renamed first: git and go-git find packs by their .idx, so a crash leaves
// at worst an orphan tmp file or an index nobody uses yet.
func (s *Store) installPack(tmpPack string, entries []idxEntry, packSum []byte) (string, error) {
	packDir := filepath.Dir(tmpPack)
	sort.Slice(entries, func(i, j int) bool { return bytes.Compare(entries[i].hash[:], entries[j].hash[:]) < 0 })
	xf, err := os.CreateTemp(packDir, "tmp_idx_")
	if err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	tmpIdx := xf.Name()
	defer os.Remove(tmpIdx) // no-op after the rename
	defer xf.Close()
	isum := sha1.New()
	iw := bufio.NewWriterSize(io.MultiWriter(xf, isum), 1<<16)
	writeIndex(iw, entries, packSum)
	if err := iw.Flush(); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if _, err := xf.Write(isum.Sum(nil)); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := s.fsync(xf); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	base := filepath.Join(packDir, fmt.Sprintf("pack-%x", packSum))
	xf.Chmod(0o444)
	if err := xf.Close(); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	// git finds packs by their .idx and ignores an .idx without its .pack;
	// go-git finds them by the .pack and fails on a .pack without its .idx.
	// So the .idx goes first: a crash between the renames leaves an orphan
	// .idx that neither sees.
	if err := replaceFile(tmpIdx, base+".idx"); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := s.fsyncDir(packDir); err != nil {
		return "", fmt.Errorf("gitstore: write pack index: %w", err)
	}
	if err := replaceFile(tmpPack, base+".pack"); err != nil {
		return "", fmt.Errorf("gitstore: write pack: %w", err)
	}
	if err := s.fsyncDir(packDir); err != nil {
		return "", fmt.Errorf("gitstore: write pack: %w", err)
	}
	return base + ".pack", nil
}

// writeIndex writes a v2 pack index, all but its own checksum.
func writeIndex(w io.Writer, entries []idxEntry, packSum []byte) {
	u32 := func(v uint32) { var b [4]byte; binary.BigEndian.PutUint32(b[:], v); w.Write(b[:]) }
	w.Write([]byte{0xff, 't', 'O', 'c'})
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
		w.Write(e.hash[:])
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
		w.Write(b[:])
	}
	w.Write(packSum)
}
