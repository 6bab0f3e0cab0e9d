package wiki

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptwiki/pt/content/guidance"
)

// IsGuidance reports whether a space path is a file pt writes for coding
// agents (AGENTS.md at the root of a space that is the repository's root)
// rather than a page: it is never listed, indexed or linted as one.
func IsGuidance(p string) bool {
	return p == guidance.AgentsFile || strings.HasPrefix(p, ".claude/")
}

// guidanceFiles adds the agents' files to the first batch of a space whose
// folder in the repository at root is prefix: AGENTS.md with the space's
// section merged into what the work tree holds, and the skill unless the
// work tree holds another version of it, which is a person's.
func guidanceFiles(root, prefix, name string, extra map[string][]byte) error {
	up := rootClimb(prefix)
	old, err := os.ReadFile(filepath.Join(root, guidance.AgentsFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	merged, err := guidance.Merge(old, guidance.Section(prefix, name))
	if err != nil {
		return err
	}
	extra[up+guidance.AgentsFile] = merged
	skill := guidance.Skill()
	cur, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(guidance.SkillPath)))
	if err == nil && !bytes.Equal(cur, skill) {
		return nil
	}
	extra[up+guidance.SkillPath] = skill
	return nil
}
