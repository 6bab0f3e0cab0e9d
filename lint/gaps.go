package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// withGaps adds a knowledge_gap finding for each question the space could
// not answer, when kb.yaml asks for them (gaps.lint). The questions are
// recorded in the local state of the clone that served them, which a CI
// checkout lacks: a clone that recorded none keeps the open knowledge_gap
// rows committed in prev, so that they still reach CI and SARIF.
func (r *result) withGaps(s *wiki.Space, prev []Finding, now time.Time) {
	if !s.Config().Gaps.Lint {
		return
	}
	now = now.UTC().Truncate(time.Second)
	gaps, err := s.Gaps()
	if err != nil || len(gaps) == 0 {
		for _, f := range prev {
			if f.Check == CheckGap && f.Open() {
				f.LastSeen = now
				r.findings = append(r.findings, f)
			}
		}
		sortFindings(r.findings)
		return
	}
	rule, _ := ruleOf(CheckGap)
	seen := map[string]bool{}
	for _, g := range gaps {
		key := wiki.GapKey(g.Question)
		id := FindingID(CheckGap, wiki.HubPath, key)
		if seen[id] {
			continue
		}
		seen[id] = true
		msg := fmt.Sprintf("asked %d time%s, last %s, not answered: %q", g.Count, map[bool]string{true: "", false: "s"}[g.Count == 1], g.Last.UTC().Format(time.DateOnly), g.Question)
		if len(g.Nearest) > 0 {
			msg += " (nearest: " + strings.Join(g.Nearest, ", ") + ")"
		}
		r.findings = append(r.findings, Finding{ID: id, Check: CheckGap, Severity: rule.Severity, Path: wiki.HubPath,
			Target: key, Message: msg, FirstSeen: now, LastSeen: now, Status: StatusOpen})
	}
	sortFindings(r.findings)
}
