package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runVaries matches what differs from one run of docs/example/generate.sh
// to the next: batch ids are random, and the blob ids and commit hashes
// that follow from them.
var runVaries = regexp.MustCompile(`b-\d{8}-[0-9a-f]{6}|\b[0-9a-f]{40}\b|\b[0-9a-f]{12}\b`)

// TestExampleSpace regenerates the example space of docs/example with its
// script, the test binary acting as pt, and checks that it gives the
// committed files, so that the example does not drift from what pt writes.
// After a change to what pt writes: go install ./cmd/pt &&
// docs/example/generate.sh.
func TestExampleSpace(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not available")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, out := t.TempDir(), t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "pt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "docs", "example", "generate.sh"), out)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, b)
	}
	want := filepath.Join("..", "..", "docs", "example")
	files := func(root string) map[string]string {
		m := map[string]string{}
		for _, top := range []string{"space", "transcript.md"} {
			_ = filepath.WalkDir(filepath.Join(root, top), func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				m[filepath.ToSlash(rel)] = runVaries.ReplaceAllString(string(b), "…")
				return nil
			})
		}
		return m
	}
	got, committed := files(out), files(want)
	for p, w := range committed {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: committed but no longer generated", p)
		case g != w:
			t.Errorf("%s differs from what generate.sh writes now; run it again:\n%s", p, firstDiff(w, g))
		}
	}
	for p := range got {
		if _, ok := committed[p]; !ok {
			t.Errorf("%s: generated but not committed", p)
		}
	}
}

// firstDiff shows the first line where two texts part.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}
