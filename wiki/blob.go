package wiki

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
)

// BlobID is the git blob id of data: the revision a page will have once it
// is committed. Ingest pins a summary's derived_from to its source's blob in
// the same batch that writes the source, before any object exists.
func BlobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
