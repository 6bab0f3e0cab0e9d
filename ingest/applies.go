package ingest

import (
	"context"
	"fmt"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// checkAppliesTo checks applies_to globs before anything is written: each
// must be a relative glob of the code repository (content.CheckGlob), and
// when the space lives in its code's repository each must match one of its
// files, so that a typo does not scope a page to nothing. A space in a
// repository of its own cannot tell, and takes any well-formed glob.
func checkAppliesTo(ctx context.Context, s *wiki.Space, globs []string) error {
	if len(globs) == 0 {
		return nil
	}
	for _, g := range globs {
		if err := content.CheckGlob(g); err != nil {
			return err
		}
	}
	head, err := s.Head(ctx)
	if err != nil {
		return err
	}
	files, err := s.CodeFiles(ctx, head)
	if err != nil || len(files) == 0 {
		return err
	}
	for _, g := range globs {
		matched := false
		for _, f := range files {
			if content.MatchGlob(g, f) {
				matched = true
				break
			}
		}
		if !matched {
			return fmt.Errorf("%w %q: it matches no file of the repository", content.ErrBadGlob, g)
		}
	}
	return nil
}

// appliesOf is what a summary applies to: the caller's globs, else those
// of the source's own frontmatter.
func appliesOf(given []string, src *content.Page) []string {
	if given != nil {
		return given
	}
	return src.Meta.AppliesTo
}
