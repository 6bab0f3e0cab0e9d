package retrieve

import (
	"context"
	"strings"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// Navigation bounds: how many topics a question may open, and how close to
// the best spoke's score another must come to be opened too.
const (
	maxTopics    = 3
	topicRatio   = 0.6
	maxPartsRead = 8
	navLimit     = 100
)

// navigate is the index-first channel: it picks the topics whose spokes best
// match the question (the spokes' titles, descriptions and member lines are
// indexed, standing in for the hub's one line per topic), reads those spokes
// from git, and ranks the sections of their member pages that are within
// (canonical keys). A hit on a summary brings its source along, since
// spokes list summaries and not sources. Searching only the members the
// pages channel also found costs a fraction of searching them all and ranks
// every question of the evaluation sets the same.
func (e *Engine) navigate(ctx context.Context, ix *index.Index, head wiki.Rev, question string, within map[string]bool, tr *Trace) ([]index.Hit, error) {
	spokes, err := ix.Search(ctx, index.Query{Text: question, Types: []string{typeSpoke}, Limit: 2 * maxTopics, OmitBody: true, ExcludeStatus: inactive})
	if err != nil || len(spokes) == 0 {
		return nil, err
	}
	members := map[string]bool{}
	read := map[string]bool{}
	readSpoke := func(p string) []string {
		if read[p] {
			return nil
		}
		read[p] = true
		sp := e.cache.readSpokeAt(ctx, e.space, head, p)
		if !sp.ok {
			return nil
		}
		tr.SpokesRead++
		for _, m := range sp.members {
			members[m] = true
			if strings.HasPrefix(m, "summaries/") {
				members["sources/"+strings.TrimPrefix(m, "summaries/")] = true
			}
		}
		return sp.parts
	}
	for i, sp := range spokes {
		if i >= maxTopics || sp.Score < topicRatio*spokes[0].Score {
			break
		}
		tr.Topics = append(tr.Topics, sp.Title)
		parts := readSpoke(sp.Path)
		for j, part := range parts {
			if j >= maxPartsRead {
				break
			}
			readSpoke(part)
		}
	}
	if len(members) == 0 {
		return nil, nil
	}
	paths := make([]string, 0, len(members))
	for p := range members {
		if within[canonical(p)] {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	return ix.Search(ctx, index.Query{Text: question, Types: []string{typeSection}, Paths: paths, Limit: navLimit, ExcludeStatus: inactive})
}
