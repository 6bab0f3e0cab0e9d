package lint

import "time"

// The curation checks: findings in the same rows as lint's, written by
// pt curate, never by pt lint.
const (
	CheckContradiction  = "contradiction"
	CheckStale          = "stale_claim"
	CheckMissingConcept = "missing_concept"
	CheckMerge          = "merge_candidate"
	CheckLesson         = "unpromoted_lesson"
)

var (
	ruleContradiction = Rule{ID: CheckContradiction, Name: "Contradiction", Severity: SeverityWarning,
		Short: "Two active pages state different values for the same subject.",
		Help:  "Each value is cited by page, line and revision in the finding's evidence. Correct the page that is wrong, or supersede it by the other."}
	ruleStale = Rule{ID: CheckStale, Name: "StaleClaim", Severity: SeverityWarning,
		Short: "A sentence's own time words have passed: a date gone by, an old version, \"currently\" or \"until\" with an anchor long past.",
		Help:  "Rewrite the sentence as it holds now, or date it as history. The decision time is pt curate --now (default: now); kb.yaml curate.stale_after and curate.version_horizon set the horizons."}
	ruleMissingConcept = Rule{ID: CheckMissingConcept, Name: "MissingConcept", Severity: SeverityNote,
		Short: "A term many pages use has no page: no title, heading or spoke names it.",
		Help:  "Write the page that explains the term, or give an existing page a heading for it. kb.yaml curate.min_pages sets how many pages must use it."}
	ruleMerge = Rule{ID: CheckMerge, Name: "MergeCandidate", Severity: SeverityNote,
		Short: "Two active pages say mostly the same thing.",
		Help:  "Merge them into one page, or supersede one by the other. Dated families (yearly reports, meeting notes) are not reported."}
	ruleLesson = Rule{ID: CheckLesson, Name: "UnpromotedLesson", Severity: SeverityNote,
		Short: "Retrospectives or consults state the same lesson again and again, and no page holds it.",
		Help:  "Write the lesson down as a page of its own, so that it is found before it is learned again."}
)

// IsCuration reports whether a check is one of pt curate's.
func IsCuration(check string) bool {
	switch check {
	case CheckContradiction, CheckStale, CheckMissingConcept, CheckMerge, CheckLesson:
		return true
	}
	return false
}

// lintOwns reports whether pt lint decides a row's lifecycle: every check
// but curation's.
func lintOwns(check string) bool { return !IsCuration(check) }

// mergeOwned is Merge over the rows of the checks a run owns; the other
// rows (another command's) are carried as they were, never resolved.
func mergeOwned(prev, cur []Finding, now time.Time, retention time.Duration, owns func(string) bool) ([]Finding, Change) {
	var mine, others []Finding
	for _, f := range prev {
		if owns(f.Check) {
			mine = append(mine, f)
		} else {
			others = append(others, f)
		}
	}
	merged, ch := Merge(mine, cur, now, retention)
	merged = append(merged, others...)
	sortFindings(merged)
	return merged, ch
}
