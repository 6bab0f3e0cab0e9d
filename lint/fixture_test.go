package lint_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ptwiki/pt/wiki"
)

var (
	t0  = time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC)
	now = time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
)

// newSpace makes a space with pt init, as a team would start one.
func newSpace(t testing.TB) (string, *wiki.Space) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := wiki.Init(context.Background(), dir, wiki.InitOptions{Name: "team", When: t0, Author: wiki.Author{Name: "dana", Kind: "human"}, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return dir, s
}

// git runs the git command in dir, as a person would.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dana", "-c", "user.email=dana@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

var blobRe = regexp.MustCompile(`\{\{blob ([^}]+)\}\}`)

// plant writes a txtar fixture's first/ files, commits them with git, then
// its second/ files in a second commit. {{blob P}} becomes the blob id of
// first/P, so that a page can pin a revision of another.
func plant(t testing.TB, dir, fixture string) {
	t.Helper()
	ar, err := txtar.ParseFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	first := map[string][]byte{}
	for _, f := range ar.Files {
		if p, ok := strings.CutPrefix(f.Name, "first/"); ok {
			first[p] = f.Data
		}
	}
	// A pin names the file as committed, placeholders of its own resolved.
	blobs := map[string]string{}
	var resolve func(data []byte) []byte
	resolve = func(data []byte) []byte {
		return blobRe.ReplaceAllFunc(data, func(m []byte) []byte {
			p := string(blobRe.FindSubmatch(m)[1])
			if _, ok := blobs[p]; !ok {
				blobs[p] = wiki.BlobID(resolve(first[p]))
			}
			return []byte(blobs[p])
		})
	}
	for _, stage := range []string{"first/", "second/"} {
		n := 0
		for _, f := range ar.Files {
			p, ok := strings.CutPrefix(f.Name, stage)
			if !ok {
				continue
			}
			data := resolve(f.Data)
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n > 0 {
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "-m", "pages: "+stage)
		}
	}
}

// want is a finding a fixture expects: `want "check"` on a line.
type want struct {
	path, check string
	line        int
}

var wantRe = regexp.MustCompile(`want "([a-z_]+)"`)

// wants collects the markers of every Markdown file under dir.
func wants(t testing.TB, dir string) map[want]bool {
	t.Helper()
	out := map[want]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		for i, l := range strings.Split(string(data), "\n") {
			for _, m := range wantRe.FindAllStringSubmatch(l, -1) {
				out[want{filepath.ToSlash(rel), m[1], i + 1}] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
