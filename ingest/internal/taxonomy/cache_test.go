package taxonomy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The spoke cache comes back from its file as it was saved, without the
// blobs no longer in use; an entry that would break a line is not kept;
// a file cut short or of another format gives an empty cache.
func TestSpokeCacheFile(t *testing.T) {
	dir := t.TempDir()
	c := loadCache(dir)
	want := map[string]*spokeWords{}
	for i, name := range []string{"billing", "ledger retries", "notes"} {
		blob := string(rune('a'+i)) + "0"
		w := &spokeWords{Name: name, Words: "ledger retri " + name}
		c.put(blob, w)
		want[blob] = w
	}
	c.put("gone", &spokeWords{Name: "old"})
	c.put("tab", &spokeWords{Name: "a\ttab", Words: "x"})
	for range spokeCacheSaveAfter {
		c.put("a0", want["a0"])
	}
	live := map[string]bool{"a0": true, "b0": true, "c0": true, "tab": true}
	c.save(live)
	got := loadCache(dir).entries
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("cache read back (-want +got):\n%s", diff)
	}

	file := filepath.Join(dir, spokeCacheFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{data[:len(data)-3], []byte(`{"version":2,"spokes":{}}`)} {
		if err := os.WriteFile(file, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if n := len(loadCache(dir).entries); n != 0 {
			t.Errorf("a damaged or older file gave %d entries, want none", n)
		}
	}
}
