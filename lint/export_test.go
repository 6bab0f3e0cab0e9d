package lint

import (
	"context"

	"github.com/ptwiki/pt/wiki"
)

// WithoutFacts returns opts for a run that reads and parses every page
// and keeps no facts: the reference a run with kept facts must match.
func WithoutFacts(opts Options) Options {
	opts.noFacts = true
	return opts
}

// FactsPath is where a run keeps the facts of s's pages.
func FactsPath(s *wiki.Space) string { return factsPath(s.StateDir()) }

// Parsed loads s at HEAD as a run does, with the facts kept, and returns
// how many blobs it had to read and parse.
func Parsed(ctx context.Context, s *wiki.Space) (int, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return 0, err
	}
	snap, err := load(ctx, s, head, openFactStore(factsPath(s.StateDir())))
	if err != nil {
		return 0, err
	}
	return snap.parsed, nil
}
