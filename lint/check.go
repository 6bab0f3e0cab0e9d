package lint

// The checks lint runs, as they appear in findings and as SARIF rule ids.
const (
	CheckOrphan      = "orphan_page"
	CheckCrossref    = "broken_crossref"
	CheckDrift       = "provenance_drift"
	CheckExpired     = "expired_ttl"
	CheckFrontmatter = "invalid_frontmatter"
	CheckRetired     = "cites_retired"
	CheckSecret      = "secret_in_page"
	CheckGap         = "knowledge_gap"
)

// Severities, from the most to the least serious. They are SARIF's levels,
// so a finding maps onto a code-scanning alert without translation.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityNote    = "note"
)

// SeverityRank orders severities for --fail-on: error 3, warning 2, note 1;
// anything else 0.
func SeverityRank(s string) int {
	switch s {
	case SeverityError:
		return 3
	case SeverityWarning:
		return 2
	case SeverityNote:
		return 1
	}
	return 0
}

// Rule describes a check for people and for SARIF consumers.
type Rule struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Short    string `json:"short"`
	Help     string `json:"help"`
}

// Rules lists every check in a fixed order (SARIF rule indexes refer to it).
// A credential in a page leaks to every reader, and a broken link or an
// unreadable page misleads every reader, so they are errors; drift and expiry mean a page may be out of date; an orphan is
// only hard to find.
var Rules = []Rule{
	{ID: CheckSecret, Name: "SecretInPage", Severity: SeverityError,
		Short: "The page carries a credential: a key, a token, a private key or a password.",
		Help:  "Pages committed with git bypass pt's secret gate. Remove the credential from the page (and from the history, if it was pushed) and rotate it; pt withholds the page from queries, read_page and resources until then. docs/secrets.md lists what is recognised."},
	{ID: CheckFrontmatter, Name: "InvalidFrontmatter", Severity: SeverityError,
		Short: "The page's frontmatter cannot be read.",
		Help:  "Fix the YAML between the --- lines at the top of the page; until then pt cannot tell the page's kind, status or provenance."},
	{ID: CheckCrossref, Name: "BrokenCrossref", Severity: SeverityError,
		Short: "A link points at a page or heading that does not exist.",
		Help:  "Relative Markdown links and [[wiki links]] must name an existing page of the space, and #anchors a heading of that page. Fix the link or restore the target."},
	{ID: CheckDrift, Name: "ProvenanceDrift", Severity: SeverityWarning,
		Short: "A page was derived from or cites a revision of a file that has since changed or gone.",
		Help:  "provenance.derived_from and provenance.citations pin the git blob of what was used. Review the page against the current file and pin the new revision, or mark the page stale."},
	{ID: CheckExpired, Name: "ExpiredTTL", Severity: SeverityWarning,
		Short: "A time-bound page is past its expiry date.",
		Help:  "durability: time_bound pages expire; the reaper sets status: expired and drops them from the spokes. Renew expires if the page still holds."},
	{ID: CheckOrphan, Name: "OrphanPage", Severity: SeverityNote,
		Short: "No page links to this page and no spoke lists it.",
		Help:  "Readers and retrieval reach pages through the hub, the spokes and links. Give the page topics or link it from a related page."},
	{ID: CheckRetired, Name: "CitesRetired", Severity: SeverityWarning,
		Short: "An active page cites a page that is superseded, retracted or otherwise retired.",
		Help:  "Retired pages are never returned as answers. Point the link or the citation at the successor (superseded_by), or drop what the retracted page claimed."},
	{ID: CheckGap, Name: "KnowledgeGap", Severity: SeverityNote,
		Short: "Agents asked a question the space could not answer.",
		Help:  "pt records questions answered with sufficient: false or low coverage (pt gaps). Write or ingest the page that answers it; the finding resolves once the question is no longer recorded. kb.yaml gaps.lint turns these findings on."},
	ruleContradiction, ruleStale, ruleMissingConcept, ruleMerge, ruleLesson,
}

func ruleOf(check string) (Rule, int) {
	for i, r := range Rules {
		if r.ID == check {
			return r, i
		}
	}
	return Rule{ID: check, Severity: SeverityWarning}, -1
}
