package ingest

import (
	"context"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// origin is where a source came from: the file it was read from, named
// the way its source page records it (provenance.origin) and in the forms
// older pages may have recorded it.
type origin struct {
	recorded string   // what a new page records
	forms    []string // every form that names the same file
	inSpace  string   // the file is this page of the space ("" when it is none)
}

// originOf names the file at name: relative to the repository's root when
// it lies inside the repository, else absolute and cleaned. nil for no
// file (stdin, an agent's text).
func originOf(s *wiki.Space, name string) *origin {
	if name == "" || name == "-" {
		return nil
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil
	}
	abs = filepath.Clean(abs)
	o := &origin{recorded: filepath.ToSlash(abs), forms: []string{filepath.ToSlash(abs)}}
	if real := filepath.ToSlash(realPath(abs)); real != o.recorded {
		o.forms = append(o.forms, real)
	}
	root := s.WorkDir()
	if root == "" {
		return o
	}
	rel, err := filepath.Rel(realPath(root), realPath(abs))
	if err != nil || !filepath.IsLocal(rel) {
		return o
	}
	rel = filepath.ToSlash(rel)
	o.recorded = rel
	o.forms = append(o.forms, rel)
	if p, ok := strings.CutPrefix(rel, s.Prefix()); ok {
		if clean, err := content.CleanPath(p); err == nil && clean == p {
			o.inSpace = p
		}
	}
	return o
}

// importPin is the "@<blob id>" an import appends to the origin it records.
var importPin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`@[0-9a-f]{40}$`) })

// names reports whether a recorded origin names this file: in either form,
// with or without an import's pin.
func (o *origin) names(recorded string) bool {
	if o == nil || recorded == "" {
		return false
	}
	recorded = importPin().ReplaceAllString(recorded, "")
	for _, f := range o.forms {
		if recorded == f || path.Clean(recorded) == f {
			return true
		}
	}
	return false
}

// findByOrigin returns the source page of the space whose recorded origin
// names the file, preferring the page at first (the default slug's); nil
// when none does. The other sources are found through the origin index.
func (o *origin) findByOrigin(ctx context.Context, tx *wiki.Tx, first string) *wiki.PageAt {
	if pa, err := tx.ReadPage(ctx, first); err == nil && pa.Page.Meta.Kind == content.KindSource && o.names(pa.Page.Meta.Provenance.Origin) {
		return pa
	}
	if tx.Head() == "" {
		return nil
	}
	origins, err := loadOrigins(ctx, tx.Space(), tx.Head())
	if err != nil {
		return nil
	}
	var paths []string
	for p, rec := range origins {
		if p != first && o.names(rec) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths) // the same answer on every run when two pages name the file
	for _, p := range paths {
		if pa, err := tx.ReadPage(ctx, p); err == nil && pa.Page.Meta.Kind == content.KindSource && o.names(pa.Page.Meta.Provenance.Origin) {
			return pa
		}
	}
	return nil
}
