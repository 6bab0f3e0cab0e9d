package gitstore

import (
	"bytes"
	"encoding/binary"
)

// packIndex is a version 2 pack index (.idx) read whole, searched in
// place: ReadBlobs needs only the offset of each object it reads.
type packIndex struct {
	pack    string // the .pack file beside it
	fanout  []byte // 256 big-endian counts
	names   []byte // n sorted 20-byte ids
	offsets []byte // n 4-byte offsets
	large   []byte // 8-byte offsets, for packs over 2 GiB
}

// parsePackIndex reads the layout of a version 2 index; ok is false for
// anything else (a version 1 index of an old git), whose objects are then
// read the usual way.
func parsePackIndex(data []byte) (idx packIndex, ok bool) {
	const head = 8 + 256*4
	if len(data) < head || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return idx, false
	}
	idx.fanout = data[8:head]
	n := int(binary.BigEndian.Uint32(idx.fanout[255*4:]))
	end := head + n*20 + n*4 + n*4
	if n < 0 || len(data) < end+40 {
		return idx, false
	}
	idx.names = data[head : head+n*20]
	idx.offsets = data[head+n*24 : end]
	idx.large = data[end : len(data)-40]
	return idx, true
}

// find returns the offset of h in the pack.
func (idx packIndex) find(h Hash) (int64, bool) {
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(idx.fanout[(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(idx.fanout[int(h[0])*4:]))
	if hi > len(idx.names)/20 || lo > hi {
		return 0, false
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(idx.names[mid*20:mid*20+20], h[:]); {
		case c == 0:
			off := binary.BigEndian.Uint32(idx.offsets[mid*4:])
			if off&0x80000000 == 0 {
				return int64(off), true
			}
			k := int(off&0x7fffffff) * 8
			if k+8 > len(idx.large) {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(idx.large[k:])), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}
