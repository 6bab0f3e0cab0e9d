package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// verifySegments checks every segment the newest snapshot of dir can refer
// to against the CRC-32 its footer ends with (the checksum of every byte
// before it), before bluge opens them. bluge trusts offsets and lengths
// read from a segment: damaged bytes make it panic, in a background merge
// where nothing can recover, or ask for a slice no allocation can meet,
// which is fatal. A mismatch is ErrCorrupt, so that the index is rebuilt.
// Segments numbered above the newest snapshot were being written when a
// writer died; bluge ignores them, and so does the check.
//
// It runs only where bluge's lock can be held meanwhile (probeable), so
// that no writer changes a segment under it. The cost is one read of the
// index's segment files per process, at open.
func verifySegments(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var newest uint64
	snaps := false
	for _, e := range entries {
		if id, ok := itemID(e.Name(), ".snp"); ok {
			newest, snaps = max(newest, id), true
		}
	}
	if !snaps {
		return nil
	}
	for _, e := range entries {
		if id, ok := itemID(e.Name(), ".seg"); ok && id <= newest {
			if err := checkSegment(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
		}
	}
	return nil
}

// itemID is the number bluge names a file of kind with (%012x).
func itemID(name, kind string) (uint64, bool) {
	hex, ok := strings.CutSuffix(name, kind)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(hex, 16, 64)
	return id, err == nil
}

// checkSegment compares a segment's stored CRC-32 with its bytes.
func checkSegment(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < 4 {
		return fmt.Errorf("segment %s: %d bytes", filepath.Base(path), fi.Size())
	}
	h := crc32.NewIEEE()
	if _, err := io.CopyN(h, f, fi.Size()-4); err != nil {
		return fmt.Errorf("segment %s: %w", filepath.Base(path), err)
	}
	var stored [4]byte
	if _, err := io.ReadFull(f, stored[:]); err != nil {
		return fmt.Errorf("segment %s: %w", filepath.Base(path), err)
	}
	if got := h.Sum32(); got != binary.BigEndian.Uint32(stored[:]) {
		return fmt.Errorf("segment %s fails its checksum", filepath.Base(path))
	}
	return nil
}
