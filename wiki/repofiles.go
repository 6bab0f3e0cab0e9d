package wiki

import (
	"context"
	"strings"
)

// CodeFiles lists the files of the repository at rev outside the space's
// folder, as paths relative to the repository's root: the code that pages'
// applies_to globs name when the space lives beside it. A space at the
// root of its repository has none: its code lives elsewhere.
func (s *Space) CodeFiles(ctx context.Context, rev Rev) ([]string, error) {
	h, err := toHash(rev)
	if err != nil || h.IsZero() {
		return nil, err
	}
	es, err := s.store.List(ctx, h, "")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range es {
		if s.prefix == "" || strings.HasPrefix(e.Path, s.prefix) {
			continue
		}
		out = append(out, e.Path)
	}
	return out, nil
}
