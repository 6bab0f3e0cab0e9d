package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// verifySegments checks every segment the newest readable snapshot of dir
// refers to against the CRC-32 its footer ends with (the checksum of every
// byte before it), before bluge opens them. bluge trusts offsets and
// lengths read from a segment: damaged bytes make it panic, in a
// background merge where nothing can recover, or ask for a slice no
// allocation can meet, which is fatal. A mismatch is ErrCorrupt, so that
// the index is rebuilt. Segments no snapshot refers to (one a killed
// writer left half written, one merged away and not yet removed) are not
// checked: bluge does not read them either. The newest readable snapshot
// is the one bluge writes from; it also loads older ones it finds, whose
// segments the newest mostly shares.
//
// It runs only where bluge's lock can be held meanwhile (probeable), so
// that no writer changes a file under it. bluge never rewrites a segment,
// so a segment is read once: its name, size and modification time are then
// kept in verifiedName, and a later open that finds them unchanged only
// stats the file. A cold query thus opens the index without reading it.
func verifySegments(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var snaps []uint64
	for _, e := range entries {
		if id, ok := itemID(e.Name(), ".snp"); ok {
			snaps = append(snaps, id)
		}
	}
	if len(snaps) == 0 {
		return nil
	}
	slices.Sort(snaps)
	for i := len(snaps) - 1; i >= 0; i-- {
		segs, err := snapshotSegments(filepath.Join(dir, fmt.Sprintf("%012x.snp", snaps[i])))
		if err != nil {
			continue // unreadable: bluge moves on to the one before
		}
		return checkSegments(dir, segs)
	}
	return fmt.Errorf("%w: no readable snapshot", ErrCorrupt)
}

// verifiedName is the file that lists the segments already checked, one
// "name size mtime" line each. It is derived data: a missing or damaged
// list costs one more read of the segments.
const verifiedName = "pt-verified"

// checkSegments checks the segments segs of dir that verifiedName does not
// list as they are now, and rewrites the list when it changed.
func checkSegments(dir string, segs []uint64) error {
	known := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, verifiedName)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			known[l] = true
		}
	}
	keep := make([]string, 0, len(segs))
	changed := false
	for _, id := range segs {
		name := fmt.Sprintf("%012x.seg", id)
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		line := fmt.Sprintf("%s %d %d", name, fi.Size(), fi.ModTime().UnixNano())
		keep = append(keep, line)
		if known[line] {
			continue
		}
		if err := checkSegment(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		changed = true
	}
	if changed || len(keep) != len(known) {
		writeVerified(dir, keep)
	}
	return nil
}

// writeVerified replaces the list through a rename, so that a reader sees
// the old list or the new one. A failure only means a later read.
func writeVerified(dir string, lines []string) {
	tmp, err := os.CreateTemp(dir, verifiedName+".*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(strings.Join(lines, "\n"))
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, verifiedName)) != nil {
		os.Remove(tmp.Name())
	}
}

// snapshotSegments reads the segment ids a bluge snapshot file lists, after
// checking its own CRC-32 (format 1: uvarint version, uvarint count, then
// per segment a uvarint-prefixed type, a 4-byte version, a uvarint id and
// a uvarint-prefixed deleted-documents bitmap; the checksum last).
func snapshotSegments(path string) ([]uint64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("snapshot %s fails its checksum", filepath.Base(path))
	}
	b := data[:len(data)-4]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	skip := func(n uint64) bool {
		if uint64(len(b)) < n {
			return false
		}
		b = b[n:]
		return true
	}
	bad := fmt.Errorf("snapshot %s: unreadable", filepath.Base(path))
	if v, ok := next(); !ok || v != 1 {
		return nil, bad
	}
	count, ok := next()
	if !ok || count > uint64(len(b)) {
		return nil, bad
	}
	ids := make([]uint64, 0, count)
	for range count {
		typeLen, ok := next()
		if !ok || !skip(typeLen) || !skip(4) {
			return nil, bad
		}
		id, ok := next()
		if !ok {
			return nil, bad
		}
		delLen, ok := next()
		if !ok || !skip(delLen) {
			return nil, bad
		}
		ids = append(ids, id)
	}
	if len(b) != 0 {
		return nil, bad
	}
	return ids, nil
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
