package gitstore

import "os"

// mapFile reads a file whole: on Windows a mapped file could not be
// deleted while pt holds it (git gc removes the packs it repacks).
func mapFile(path string) (data []byte, release func(), err error) {
	data, err = os.ReadFile(path)
	return data, func() {}, err
}
