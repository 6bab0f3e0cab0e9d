package lint

import (
	"context"
	"strings"
)

// Confirmer is a model that reviews a curation candidate: keep it (with
// its reason) or dismiss it. lint holds no model client: the caller passes
// one in (pt's OpenAI-compatible endpoint, in ingest).
type Confirmer interface {
	Confirm(ctx context.Context, f Finding) (keep bool, reason string, err error)
}

// verdict is a model's answer about one candidate, kept in the cache by the
// finding's id and the revisions it rests on.
type verdict struct {
	Keep   bool
	Reason string
}

// maxModelFailures: after this many failures in a row the model is taken
// to be down, and the remaining candidates are kept unconfirmed rather
// than each waiting for its timeout.
const maxModelFailures = 3

// ModelStats counts what the model did in a run.
type ModelStats struct {
	Confirmed int    `json:"confirmed"`
	Dismissed int    `json:"dismissed"`
	Failed    int    `json:"failed"`  // no usable answer: the candidate is kept as the rules found it
	Cached    int    `json:"cached"`  // verdicts reused from an earlier run
	Unasked   int    `json:"unasked"` // not asked once the model was taken to be down
	LastError string `json:"last_error,omitempty"`
}

// confirm asks m about every candidate (or reuses its earlier verdict) and
// returns the ones it keeps, with its reason. A failure keeps the
// candidate: the model can only take away what the rules found.
func confirm(ctx context.Context, m Confirmer, cands []Finding, cache *factsCache) ([]Finding, ModelStats) {
	var st ModelStats
	out := cands[:0:0]
	failures := 0
	for _, f := range cands {
		key := verdictKey(f)
		v, ok := cache.verdict(key)
		switch {
		case ok:
			st.Cached++
		case failures >= maxModelFailures || ctx.Err() != nil:
			st.Unasked++
			out = append(out, f)
			continue
		default:
			keep, reason, err := m.Confirm(ctx, f)
			if err != nil {
				failures++
				st.Failed++
				st.LastError = err.Error()
				out = append(out, f)
				continue
			}
			failures = 0
			v = verdict{Keep: keep, Reason: clip(strings.TrimSpace(reason), 500)}
			cache.putVerdict(key, v)
		}
		if !v.Keep {
			st.Dismissed++
			continue
		}
		st.Confirmed++
		f.Reason = v.Reason
		out = append(out, f)
	}
	return out, st
}

// verdictKey names a candidate as the model saw it: its id and the
// revisions of its evidence, so that an edited page is asked about again.
func verdictKey(f Finding) string {
	var b strings.Builder
	b.WriteString(f.ID)
	for _, e := range f.Evidence {
		b.WriteString("\x00" + e.Revision)
	}
	return b.String()
}
