package index

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCommitSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "c1", storagePage("blob1", ""))
	apply(t, ix, "c2", []Doc{{ID: "pages/a.md", Path: "pages/a.md", Type: "page", Title: "Alpha"}})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got := ix.Commit(); got != "c2" {
		t.Fatalf("Commit after reopen = %q, want c2", got)
	}
	if n := count(t, ix); n != 4 {
		t.Fatalf("Count after reopen = %d, want 4", n)
	}

	// An Apply after reopen touches only its paths.
	apply(t, ix, "c3", []Doc{{ID: "pages/a.md", Path: "pages/a.md", Type: "page", Title: "Alpha two"}}, "pages/storage.md")
	if n := count(t, ix); n != 1 {
		t.Fatalf("Count = %d, want 1", n)
	}
	hits := hitsFor(t, ix, Query{Text: "alpha"})
	if len(hits) != 1 || hits[0].Title != "Alpha two" {
		t.Fatalf("hits = %+v", hits)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := ix.Commit(); got != "c3" {
		t.Errorf("Commit after second reopen = %q, want c3", got)
	}
}

func TestBusyInProcess(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Open(dir)
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second Open: %v, want ErrBusy", err)
	}
	// The same directory by another name is the same index.
	if _, err := Open(filepath.Join(dir, ".", "")); !errors.Is(err, ErrBusy) {
		t.Fatalf("Open via other name: %v, want ErrBusy", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("ErrBusy took %v", d)
	}
	ix.Close()
	ix, err = Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	ix.Close()
}

// helperEnv names the directory a re-executed test binary opens; see TestMain.
const helperEnv = "PT_INDEX_TEST_HELPER_DIR"

// helperOpen runs in the child process: it opens the index and reports, on
// stdout, "busy", "ok" or the error, with how long Open took.
func helperOpen(dir string) {
	start := time.Now()
	ix, err := Open(dir)
	took := time.Since(start)
	switch {
	case errors.Is(err, ErrBusy):
		// Ten more refused opens must not leave goroutines behind.
		before := runtime.NumGoroutine()
		for range 10 {
			if _, err := Open(dir); !errors.Is(err, ErrBusy) {
				fmt.Printf("error %v\n", err)
				return
			}
		}
		fmt.Printf("busy %d %d\n", took.Milliseconds(), runtime.NumGoroutine()-before)
	case err != nil:
		fmt.Printf("error %v\n", err)
	default:
		fmt.Printf("ok %d %s\n", took.Milliseconds(), ix.Commit())
		ix.Close()
	}
}

func openInChild(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestBusyAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "c1", storagePage("blob1", ""))

	out := openInChild(t, dir)
	var ms, leaked int
	if _, err := fmt.Sscanf(out, "busy %d %d", &ms, &leaked); err != nil {
		t.Fatalf("child Open while held: %q, want busy", out)
	}
	if leaked > 0 {
		t.Errorf("ten refused opens left %d goroutines running", leaked)
	}
	if ms > 1000 {
		t.Errorf("child waited %d ms for ErrBusy", ms)
	}

	ix.Close()
	out = openInChild(t, dir)
	if !strings.HasPrefix(out, "ok ") || !strings.HasSuffix(out, " c1") {
		t.Fatalf("child Open after Close: %q, want ok with commit c1", out)
	}
}

func TestCorrupt(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"foreign files":    {"README": "not an index"},
		"wrong format":     {markerName: "pt full-text index (bluge), format 0\n"},
		"garbage snapshot": {markerName: markerText(), "000000000003.snp": "garbage"},
		"bad file name":    {markerName: markerText(), "zz.seg": "garbage"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "index")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			for f, body := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Open(dir)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open: %v, want ErrCorrupt", err)
			}
			// The directory is not left locked: callers delete and rebuild.
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			ix, err := Open(dir)
			if err != nil {
				t.Fatalf("Open after delete: %v", err)
			}
			defer ix.Close()
			apply(t, ix, "c1", storagePage("blob1", ""))
			if n := count(t, ix); n != 3 {
				t.Errorf("Count = %d", n)
			}
		})
	}
}

// onePageIndex writes an index of one page in a new directory, closed.
func onePageIndex(t *testing.T) string {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "c1", storagePage("blob1", ""))
	ix.Close()
	return dir
}

func TestCorruptSegment(t *testing.T) {
	dir := onePageIndex(t)
	segs, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment files written")
	}
	for _, s := range segs {
		if err := os.WriteFile(s, []byte("garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v, want ErrCorrupt", err)
	}
}

// Damaged segment bytes, wherever they are, make Open report ErrCorrupt,
// so that the caller rebuilds: the segment's checksum is checked before
// bluge reads it (where the platform lets pt hold bluge's lock meanwhile),
// and bluge's panics on damaged bytes are caught as corruption. Before,
// some of these bytes made bluge panic in a background merge or ask for a
// slice no allocation can meet.
func TestDamagedSegmentIsCorrupt(t *testing.T) {
	src := onePageIndex(t)
	for _, at := range []float64{0.1, 0.5, 0.9, 0.999} {
		// A fresh copy each time: a panic inside bluge would leave its
		// lock taken in this process, as it would before a rebuild.
		dir := t.TempDir()
		entries, _ := os.ReadDir(src)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				continue
			}
			if strings.HasSuffix(e.Name(), ".seg") {
				off := int(float64(len(data)) * at)
				copy(data[off:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
			}
			os.WriteFile(filepath.Join(dir, e.Name()), data, 0o600)
		}
		ix, err := Open(dir) // must not panic
		if err == nil {
			ix.Close()
			if probeable {
				t.Errorf("segment damaged at %.1f%% of its length: Open succeeded", at*100)
			}
			continue
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("segment damaged at %.1f%% of its length: %v, want ErrCorrupt", at*100, err)
		}
	}
}

func TestPanicInOpenIsCorrupt(t *testing.T) {
	_, err := guarded(func() (*Index, error) { panic("slice bounds out of range") })
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a panic while opening: %v, want ErrCorrupt", err)
	}
}

// A segment no snapshot refers to, as a writer killed while writing one
// leaves it, is not checked (bluge does not read it either): the index
// opens as it is instead of being rebuilt after every such crash.
func TestHalfWrittenSegmentIsIgnored(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		apply(t, ix, fmt.Sprint("c", i), storagePage(fmt.Sprint("blob", i), ""))
	}
	ix.Close()
	entries, _ := os.ReadDir(dir)
	var newest uint64
	var seg string
	for _, e := range entries {
		if id, ok := itemID(e.Name(), ".seg"); ok && id >= newest {
			newest, seg = id, e.Name()
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, seg))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("%012x.seg", newest+1)), data[:len(data)/2], 0o600)
	ix, err = Open(dir)
	if err != nil {
		t.Fatalf("Open beside a half-written segment no snapshot lists: %v", err)
	}
	ix.Close()
}
