package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptwiki/pt/content/guidance"
)

// GuidanceFile is one file InstallGuidance looked at and what it did.
type GuidanceFile struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, updated, unchanged, or kept (a person's version, left alone)
}

// GuidanceResult is what InstallGuidance did: the JSON of `pt agents install`.
type GuidanceResult struct {
	Files []GuidanceFile `json:"files"`
}

// InstallKept is the status of a skill file a person changed: left alone.
const InstallKept = "kept"

// InstallGuidance writes what coding agents read for the space whose folder
// in the repository at root is prefix ("" or "kb/") and whose name is name:
// its section of AGENTS.md, merged between markers into the file there, and
// the consult-the-kb skill unless a different version of it (a person's)
// is there. Both are written atomically and only when they change; a broken
// AGENTS.md (a begin marker without its end) writes nothing at all.
func InstallGuidance(root, prefix, name string) (*GuidanceResult, error) {
	agents := filepath.Join(root, guidance.AgentsFile)
	old, err := os.ReadFile(agents)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	merged, err := guidance.Merge(old, guidance.Section(prefix, name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", agents, err)
	}
	skill := filepath.Join(root, filepath.FromSlash(guidance.SkillPath))
	cur, err := os.ReadFile(skill)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	res := &GuidanceResult{}
	for _, f := range []struct {
		path      string
		old, next []byte
		existed   bool
	}{
		{agents, old, merged, old != nil},
		{skill, cur, guidance.Skill(), cur != nil},
	} {
		st := InstallAdded
		switch {
		case bytes.Equal(f.old, f.next):
			st = InstallUnchanged
		case f.existed && f.path == skill:
			st = InstallKept
		case f.existed:
			st = InstallUpdated
		}
		if st == InstallAdded || st == InstallUpdated {
			if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
				return nil, err
			}
			if err := writeAtomic(f.path, f.next, 0o644); err != nil {
				return nil, fmt.Errorf("%s: %w", f.path, err)
			}
		}
		res.Files = append(res.Files, GuidanceFile{Path: f.path, Status: st})
	}
	return res, nil
}
