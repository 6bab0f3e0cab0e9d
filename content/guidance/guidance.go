package guidance

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Where the files go, relative to the repository's root.
const (
	AgentsFile = "AGENTS.md"
	SkillName  = "consult-the-kb"
	SkillPath  = ".claude/skills/" + SkillName + "/SKILL.md"
)

// ErrMarkers is returned by Merge when AGENTS.md holds a pt begin marker
// without its end (or the other way round): pt will not guess where its
// section stops.
var ErrMarkers = errors.New("AGENTS.md: unbalanced pt markers")

// beginMarker and endMarker frame the section of one space: key is the
// space's folder in the repository ("." at the root), so that the spaces of
// one repository each keep a section of their own.
func beginMarker(key string) string { return "<!-- pt:begin " + key + " -->" }
func endMarker(key string) string   { return "<!-- pt:end " + key + " -->" }

// Key is the marker key of a space whose folder in the repository is
// prefix ("" or "kb/").
func Key(prefix string) string {
	if p := strings.TrimSuffix(prefix, "/"); p != "" {
		return p
	}
	return "."
}

// kbFlag is how a command run at the repository's root names the space.
func kbFlag(prefix string) string {
	if p := strings.TrimSuffix(prefix, "/"); p != "" {
		return " --kb " + p
	}
	return ""
}

// Section is the AGENTS.md section, markers included, for the space whose
// folder in the repository is prefix ("" at the root) and whose name is
// name.
func Section(prefix, name string) string {
	kb := kbFlag(prefix)
	where := "at the root of this repository"
	if k := Key(prefix); k != "." {
		where = "in `" + k + "/`"
	}
	var b strings.Builder
	b.WriteString(beginMarker(Key(prefix)) + "\n")
	fmt.Fprintf(&b, "## Knowledge base: %s\n\n", name)
	fmt.Fprintf(&b, "The team's decisions, conventions and lessons live in a pt knowledge base %s.\n\n", where)
	b.WriteString(Habits)
	fmt.Fprintf(&b, "\nWithout the MCP server, use the CLI: `pt%s query-kb --json \"QUESTION\"` (add `--path FILE` for the files you will change); "+
		"cite `path@revision` from its `results`.\n", kb)
	b.WriteString(endMarker(Key(prefix)) + "\n")
	return b.String()
}

// Habits are the five habits every piece of guidance states, in the same
// words: the AGENTS.md section, the skill and the MCP server's instructions.
const Habits = `- Query before implementing: call query_knowledge_base (pass the files you are about to change as paths) and read what applies.
- Cite what you used as path@revision, with the revision the query returned.
- Check that an excerpt states the fact before you rely on it; when the answer is sufficient=false, say the knowledge base does not know.
- File back durable answers (decisions, conventions, how things work) with file_back_consult or propose_note, citing the pages used.
- Never file live state: plans, priorities, status and who works on what go stale and are refused.
`

// Skill is the consult-the-kb skill: a SKILL.md with the frontmatter Claude
// Code and other agents read. It names no space, so that every space of a
// repository writes the same file.
func Skill() []byte {
	return []byte(`---
name: ` + SkillName + `
description: Ground work in the team's pt knowledge base before implementing or answering, cite the pages used, and file durable answers back. Use before changing code, designing, or answering questions about this project.
---
# Consult the knowledge base

` + Habits + `
## With MCP

The pt server offers query_knowledge_base (question and/or paths), read_page, browse_index, and for writes file_back_consult and propose_note (a note a person reviews before it lands).

## Without MCP

Run pt from the repository (AGENTS.md says where each knowledge base lives; pass ` + "`--kb DIR`" + ` for one in a folder):

` + "```sh" + `
pt query-kb --json "how are ledger replays made idempotent"
pt query-kb --json --path internal/ledger/replay.go
` + "```" + `

Each result has path, revision and excerpt; cite path@revision. When sufficient is false, results is empty: say so rather than guess.
`)
}

// Merge puts section (with its markers) into an AGENTS.md whose content is
// old: it replaces the section of the same key when there is one, else
// appends it after a blank line. Text outside the markers is kept byte for
// byte. It returns old itself when nothing changes.
func Merge(old []byte, section string) ([]byte, error) {
	first, _, _ := strings.Cut(section, "\n")
	key := strings.TrimSuffix(strings.TrimPrefix(first, "<!-- pt:begin "), " -->")
	if key == first || !strings.HasSuffix(section, endMarker(key)+"\n") {
		return nil, errors.New("guidance: section has no pt markers")
	}
	begin, end := []byte(beginMarker(key)), []byte(endMarker(key))
	i, j := bytes.Index(old, begin), bytes.Index(old, end)
	switch {
	case i < 0 && j < 0:
		var b bytes.Buffer
		b.Write(old)
		if len(old) > 0 {
			if !bytes.HasSuffix(old, []byte("\n")) {
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
		b.WriteString(section)
		return b.Bytes(), nil
	case i < 0 || j < i || bytes.Count(old, begin) > 1 || bytes.Count(old, end) > 1:
		return nil, fmt.Errorf("%w (%s)", ErrMarkers, key)
	}
	stop := j + len(end)
	if stop < len(old) && old[stop] == '\n' {
		stop++
	}
	if string(old[i:stop]) == section {
		return old, nil
	}
	out := make([]byte, 0, len(old)+len(section))
	out = append(out, old[:i]...)
	out = append(out, section...)
	return append(out, old[stop:]...), nil
}
