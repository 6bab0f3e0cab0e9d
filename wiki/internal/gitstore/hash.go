package gitstore

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
)

// Hash is a git object id (SHA-1). It is a value type so callers can use it as
// a map key and compare it with ==; the zero Hash means "absent" (no commit
// yet, no file at that path).
type Hash [20]byte

// ParseHash parses 40 hex digits. Abbreviated ids are a revision, not a hash:
// use Store.Resolve for them.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 40 {
		return h, fmt.Errorf("gitstore: parse hash %q: want 40 hex digits", s)
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, fmt.Errorf("gitstore: parse hash %q: %w", s, err)
	}
	return h, nil
}

// String returns the 40 hex digits git prints.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero hash, which stands for "absent".
func (h Hash) IsZero() bool { return h == Hash{} }

// objectType is the git object kind, spelled as in object headers.
type objectType string

const (
	blobObject   objectType = "blob"
	treeObject   objectType = "tree"
	commitObject objectType = "commit"
)

// hashObject computes the id git gives to content of type t.
func hashObject(t objectType, data []byte) Hash {
	d := sha1.New()
	d.Write([]byte(t))
	d.Write([]byte{' '})
	d.Write([]byte(strconv.Itoa(len(data))))
	d.Write([]byte{0})
	d.Write(data)
	var h Hash
	d.Sum(h[:0])
	return h
}

// emptyTree is the well-known id of the empty tree.
var emptyTree = hashObject(treeObject, nil)

// HashBlob returns the id git gives to data as a blob.
func HashBlob(data []byte) Hash { return hashObject(blobObject, data) }
