// Package guidance holds what pt writes for coding agents beside a space:
// the pt section of the repository's AGENTS.md and the consult-the-kb skill
// (.claude/skills/consult-the-kb/SKILL.md). It is text only: Section and
// Skill compose the files and Merge folds a section into an existing
// AGENTS.md between markers without touching a person's text. Writing them
// is the caller's job (wiki.Init's first batch, mcp.InstallGuidance).
//
// pt never indexes, lints or serves these files as pages (wiki.IsGuidance).
//
// Imports: only the standard library and gopkg.in/yaml.v3 in tests.
package guidance
