package ingest

import (
	"strings"

	"github.com/ptwiki/pt/content/secret"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// lowCoverage is the coverage below which a sufficient answer still counts
// as a gap: the excerpts hold less than half of what the question asks.
const lowCoverage = 0.5

// RecordGap records an answer the space could not give well (insufficient,
// or covering less than lowCoverage of the question) in the space's local
// gap log, unless kb.yaml turns recording off. A question carrying a secret
// is never recorded. Recording is a convenience: it never fails a query.
func RecordGap(s *wiki.Space, res *retrieve.Result) {
	if res == nil || !s.Config().RecordGaps() || strings.TrimSpace(res.Question) == "" {
		return
	}
	if res.Sufficient && res.Trace.Coverage >= lowCoverage {
		return
	}
	if len(secret.Scan([]byte(res.Question))) > 0 {
		return
	}
	g := wiki.Gap{Question: res.Question, Last: s.Now().UTC(), Coverage: res.Trace.Coverage}
	for _, h := range res.Results {
		if len(g.Nearest) == 3 {
			break
		}
		g.Nearest = append(g.Nearest, h.Path)
	}
	for _, t := range res.Trace.Topics {
		if len(g.Nearest) == 3 {
			break
		}
		g.Nearest = append(g.Nearest, wiki.SpokePath(t))
	}
	_ = s.RecordGap(g, s.Config().MaxGaps())
}
