package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
)

// indexFile is .git/index decoded just enough to replace a few entries and
// write it back: entries keep their raw stat bytes, so rewriting a
// 100k-entry index costs a copy, not a re-encode. go-git's codec is not used
// because it drops every extension and decodes each field by reflection.
type indexFile struct {
	version uint32
	body    []byte // the file read, without its checksum
	entries []indexEntry
	tree    []byte   // TREE (cache-tree) extension, invalidated on write
	kept    [][]byte // other extensions kept verbatim (header included)
}

// indexEntry is one entry: name, stage and the fixed-size fields (62 bytes,
// or 64 with extended flags) as they are on disk; an entry read from a
// version 2 or 3 index also knows where its bytes are in the file (off,
// size), so that encode copies runs of unchanged entries whole.
type indexEntry struct {
	name  string
	stage int
	raw   []byte
	off   int // -1: encoded from its fields
	size  int
}

const (
	entryFixed    = 62
	flagExtended  = 0x4000
	flagNameMask  = 0x0fff
	entryHashOffs = 40
)

// errIndexFormat marks an index pt does not rewrite (split or sparse index,
// an unknown required extension, a version it does not know).
var errIndexFormat = errors.New("unsupported index format")

func parseIndex(data []byte) (*indexFile, error) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("malformed index: %w", errIndexFormat)
	}
	sum := sha1.Sum(data[:len(data)-20])
	if !bytes.Equal(sum[:], data[len(data)-20:]) {
		return nil, errors.New("index checksum mismatch")
	}
	body := data[:len(data)-20]
	idx := &indexFile{version: binary.BigEndian.Uint32(body[4:8]), body: body}
	if idx.version < 2 || idx.version > 4 {
		return nil, fmt.Errorf("index version %d: %w", idx.version, errIndexFormat)
	}
	n := int(binary.BigEndian.Uint32(body[8:12]))
	idx.entries = make([]indexEntry, 0, min(n, len(body)/entryFixed))
	p := 12
	prev := ""
	// Names are cut from one copy of the file rather than copied one by
	// one: an index holds an entry for every file of the repository.
	var text string
	if idx.version != 4 {
		text = string(body)
	}
	for range n {
		start := p
		if p+entryFixed > len(body) {
			return nil, errors.New("malformed index: truncated entry")
		}
		flags := binary.BigEndian.Uint16(body[p+60 : p+62])
		fixed := entryFixed
		if flags&flagExtended != 0 {
			fixed += 2
		}
		p += fixed
		var name string
		if idx.version == 4 {
			strip, used := decodeOffsetVarint(body[p:])
			if used == 0 || strip > len(prev) {
				return nil, errors.New("malformed index: bad v4 name")
			}
			p += used
			nul := bytes.IndexByte(body[p:], 0)
			if nul < 0 {
				return nil, errors.New("malformed index: unterminated name")
			}
			name = prev[:len(prev)-strip] + string(body[p:p+nul])
			p += nul + 1
		} else {
			nul := bytes.IndexByte(body[p:], 0)
			if nul < 0 {
				return nil, errors.New("malformed index: unterminated name")
			}
			name = text[p : p+nul]
			entryLen := fixed + nul
			p = start + (entryLen+8)&^7
			if p > len(body) {
				return nil, errors.New("malformed index: truncated entry")
			}
		}
		if len(name) > 0 && name[len(name)-1] == '/' {
			return nil, fmt.Errorf("sparse index: %w", errIndexFormat)
		}
		e := indexEntry{name: name, stage: int(flags>>12) & 3, raw: body[start : start+fixed], off: -1}
		if idx.version != 4 {
			e.off, e.size = start, p-start
		}
		idx.entries = append(idx.entries, e)
		prev = name
	}
	for p < len(body) {
		if p+8 > len(body) {
			return nil, errors.New("malformed index: truncated extension")
		}
		sig := string(body[p : p+4])
		size := int(binary.BigEndian.Uint32(body[p+4 : p+8]))
		if p+8+size > len(body) {
			return nil, errors.New("malformed index: truncated extension")
		}
		ext := body[p : p+8+size]
		p += 8 + size
		switch {
		case sig == "TREE":
			idx.tree = ext[8:]
		case sig == "REUC":
			idx.kept = append(idx.kept, ext)
		case sig[0] >= 'A' && sig[0] <= 'Z':
			// Optional caches (UNTR, FSMN, EOIE, IEOT) describe the old
			// index; dropping them is always correct, git rebuilds them.
		default:
			return nil, fmt.Errorf("index extension %q: %w", sig, errIndexFormat)
		}
	}
	return idx, nil
}

// encode writes the index back in its own version, with the cache-tree
// entries of every directory in dirty (and the root) invalidated.
func (idx *indexFile) encode(dirty map[string]bool) []byte {
	size := 12 + 20
	for _, e := range idx.entries {
		size += len(e.raw) + len(e.name) + 8
	}
	b := make([]byte, 12, size+len(idx.tree)+64)
	copy(b, "DIRC")
	binary.BigEndian.PutUint32(b[4:], idx.version)
	binary.BigEndian.PutUint32(b[8:], uint32(len(idx.entries)))
	prev := ""
	run, runEnd := -1, -1 // a span of idx.body to copy as it is
	for _, e := range idx.entries {
		if idx.version != 4 && e.off >= 0 {
			if e.off != runEnd {
				if run >= 0 {
					b = append(b, idx.body[run:runEnd]...)
				}
				run = e.off
			}
			runEnd = e.off + e.size
			continue
		}
		if run >= 0 {
			b = append(b, idx.body[run:runEnd]...)
			run, runEnd = -1, -1
		}
		start := len(b)
		b = append(b, e.raw...)
		if idx.version == 4 {
			common := 0
			for common < len(prev) && common < len(e.name) && prev[common] == e.name[common] {
				common++
			}
			b = appendOffsetVarint(b, len(prev)-common)
			b = append(b, e.name[common:]...)
			b = append(b, 0)
		} else {
			b = append(b, e.name...)
			pad := (len(b)-start+8)&^7 - (len(b) - start)
			b = append(b, make([]byte, pad)...)
		}
		prev = e.name
	}
	if run >= 0 {
		b = append(b, idx.body[run:runEnd]...)
	}
	if idx.tree != nil {
		if t, ok := invalidateCacheTree(idx.tree, dirty); ok {
			b = append(b, "TREE"...)
			b = binary.BigEndian.AppendUint32(b, uint32(len(t)))
			b = append(b, t...)
		}
	}
	for _, ext := range idx.kept {
		b = append(b, ext...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

// newIndexEntry builds an entry with the stat data git compares; fi nil
// gives zero stat data, which makes git look at the content.
func newIndexEntry(name string, blob Hash, mode uint32, fi os.FileInfo) indexEntry {
	raw := make([]byte, entryFixed)
	if fi != nil {
		mt := fi.ModTime()
		binary.BigEndian.PutUint32(raw[8:], uint32(mt.Unix()))
		binary.BigEndian.PutUint32(raw[12:], uint32(mt.Nanosecond()))
		binary.BigEndian.PutUint32(raw[36:], uint32(fi.Size()))
		if st, ok := statOf(fi); ok {
			binary.BigEndian.PutUint32(raw[0:], uint32(st.ctimeSec))
			binary.BigEndian.PutUint32(raw[4:], uint32(st.ctimeNsec))
			binary.BigEndian.PutUint32(raw[16:], st.dev)
			binary.BigEndian.PutUint32(raw[20:], st.ino)
			binary.BigEndian.PutUint32(raw[28:], st.uid)
			binary.BigEndian.PutUint32(raw[32:], st.gid)
		}
	}
	binary.BigEndian.PutUint32(raw[24:], mode)
	copy(raw[entryHashOffs:], blob[:])
	binary.BigEndian.PutUint16(raw[60:], uint16(min(len(name), flagNameMask)))
	return indexEntry{name: name, raw: raw, off: -1}
}

func (e indexEntry) hash() Hash {
	var h Hash
	copy(h[:], e.raw[entryHashOffs:entryHashOffs+20])
	return h
}

// invalidateCacheTree marks the cache-tree nodes of the root and of every
// dirty directory as invalid (entry count -1, no hash), as git does when it
// changes an index entry. ok is false if the extension does not parse, in
// which case it is dropped (git then rebuilds it).
func invalidateCacheTree(data []byte, dirty map[string]bool) ([]byte, bool) {
	out := make([]byte, 0, len(data))
	var walk func(prefix string) bool
	walk = func(prefix string) bool {
		nul := bytes.IndexByte(data, 0)
		if nul < 0 {
			return false
		}
		name := string(data[:nul])
		data = data[nul+1:]
		lf := bytes.IndexByte(data, '\n')
		if lf < 0 {
			return false
		}
		var count, subtrees int
		if _, err := fmt.Sscanf(string(data[:lf]), "%d %d", &count, &subtrees); err != nil {
			return false
		}
		data = data[lf+1:]
		var hash []byte
		if count >= 0 {
			if len(data) < 20 {
				return false
			}
			hash, data = data[:20], data[20:]
		}
		path := join(prefix, name)
		if dirty[path] {
			count, hash = -1, nil
		}
		out = append(out, name...)
		out = append(out, 0)
		out = fmt.Appendf(out, "%d %d\n", count, subtrees)
		out = append(out, hash...)
		for range subtrees {
			if !walk(path) {
				return false
			}
		}
		return true
	}
	if !walk("") || len(data) != 0 {
		return nil, false
	}
	return out, true
}

// decodeOffsetVarint reads git's offset varint: index v4 name prefixes
// and how far before an OFS_DELTA pack entry its base is. It returns 0
// bytes read for a varint cut short or too large for an int.
func decodeOffsetVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := int(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || val > math.MaxInt>>8 {
			return 0, 0
		}
		val++
		c = b[i]
		i++
		val = val<<7 + int(c&127)
	}
	return val, i
}

func appendOffsetVarint(b []byte, v int) []byte {
	var buf [16]byte
	pos := len(buf) - 1
	buf[pos] = byte(v & 127)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		buf[pos] = 128 | byte(v&127)
	}
	return append(b, buf[pos:]...)
}
