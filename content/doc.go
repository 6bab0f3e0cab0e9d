// Package content is a pt page as data: the frontmatter schema, parsing and
// serializing that round-trip, links and headings with their lines, sections,
// safe page paths and the kb.yaml configuration.
//
// It is pure: no git, no disk, no clock. Everything that touches a repository
// lives in package wiki, which imports this one. content is the only package
// in pt that imports goldmark and its frontmatter extension, so that the
// Markdown dialect pt understands is decided in one place, and the only one
// that imports bluemonday, the sanitising policy of RenderHTML.
package content
