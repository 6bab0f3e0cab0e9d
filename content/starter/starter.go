// Package starter is pt's embedded default knowledge: a small, realistic
// team knowledge base (a payments team's postmortem, decision, conventions,
// meeting notes, runbook and glossary) that `pt demo` ingests into a
// temporary space, so a new user can see pt work with nothing but the binary.
package starter

import (
	"embed"
	"io/fs"
)

//go:embed demo/*.md
var demo embed.FS

// Demo returns the demo knowledge as a file system of Markdown files.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "demo")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}
