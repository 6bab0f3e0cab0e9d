package gitstore

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// pointRemoteHead makes the HEAD of a bare repository on this machine name
// branch when it names a branch that does not exist there: what a git
// host does for the first branch pushed to an empty repository, and what
// a push cannot do over the protocol. Without it, a plain git clone of the
// remote checks out nothing ("remote HEAD refers to nonexistent ref").
// Remotes on other machines, non-bare repositories and a HEAD that names
// an existing branch are left alone.
func pointRemoteHead(rawURL, branch string) error {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil || ep.Protocol != "file" {
		return nil
	}
	dir := filepath.FromSlash(ep.Path)
	if _, err := os.Stat(filepath.Join(dir, "objects")); err != nil {
		return nil // not a bare repository (a work tree's .git holds objects)
	}
	head := filepath.Join(dir, "HEAD")
	data, err := os.ReadFile(head)
	if err != nil {
		return nil
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: ")
	if !ok || target == "refs/heads/"+branch || refExists(dir, target) {
		return nil
	}
	f, err := createLockFile(head + ".lock")
	if err != nil {
		return err
	}
	_, werr := f.WriteString("ref: refs/heads/" + branch + "\n")
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return werr
	}
	return os.Rename(f.Name(), head)
}

// refExists reports whether the repository at gitDir holds ref, loose or
// packed.
func refExists(gitDir, ref string) bool {
	if _, err := os.Stat(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return true
	}
	packed, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return false
	}
	for _, line := range bytes.Split(packed, []byte("\n")) {
		if _, name, ok := bytes.Cut(line, []byte(" ")); ok && string(bytes.TrimSpace(name)) == ref {
			return true
		}
	}
	return false
}
