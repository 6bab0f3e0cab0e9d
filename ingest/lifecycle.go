package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Errors of the lifecycle batches that callers branch on.
var (
	errSelfSupersede = errors.New("a page cannot supersede itself")
	errCycle         = errors.New("that would make a cycle of superseded pages")
	errRetired       = errors.New("page is retired")
	errNoReason      = errors.New("a reason is required: say what was wrong")
	errNotPage       = errors.New("not a page of the space")
)

// Retirement asks for one lifecycle batch: Old superseded by New (kind
// supersede); with New empty, Old retracted for Reason (kind retract); or,
// with Status obsolete or archived, Old made obsolete (kind obsolete: it no
// longer applies and nothing replaces it) or archived (kind archive: kept
// for the record only).
type Retirement struct {
	Old string // the page to retire
	New string // its successor; "" retracts Old (or makes it Status)
	// Status is what Old becomes: content.StatusObsolete or
	// content.StatusArchived; "" means superseded when New is set, else
	// retracted.
	Status     string
	Reason     string // why: mandatory for a retract, optional for obsolete and archive
	ApprovedBy string // the person who approved it; empty only for an agent's write
	Author     wiki.Author
	When       time.Time // zero means now
}

// LifecyclePlan is what a supersede, retract, obsolete or archive changes: the pages and,
// for each, its status afterwards and who owns it. It is the preview an
// agent confirms before the batch is written.
type LifecyclePlan struct {
	Kind  string            `json:"kind"` // supersede | retract | obsolete | archive
	Title string            `json:"title"`
	Pages []LifecycleChange `json:"pages"`
}

// LifecycleChange is one page of a plan. Only its lifecycle fields change
// (status, superseded_by, supersedes, retraction): its body never does.
type LifecycleChange struct {
	Path         string         `json:"path"`
	Role         string         `json:"role"` // retired | successor
	Status       string         `json:"status"`
	SupersededBy string         `json:"superseded_by,omitempty"`
	Owner        content.Author `json:"owner"`
	HumanOwned   bool           `json:"human_owned"`

	page *content.Page // as the batch writes it
	prev *wiki.PageAt  // as it is before the batch
}

// maxChain bounds how far a chain of successors is followed.
const maxChain = 64

// Retire writes a supersede, retract, obsolete or archive as one batch,
// revertible like any other: the page's lifecycle fields and, for a
// supersede, the successor's supersedes list; a source's summary follows
// its source in the same batch. The spokes drop the retired pages. Bad
// input (a page superseding itself, a cycle, a page already retracted or
// archived) writes nothing.
func Retire(ctx context.Context, s *wiki.Space, r Retirement) (*wiki.Result, error) {
	r, err := checkRetirement(r)
	if err != nil {
		return nil, err
	}
	b := wiki.Batch{Kind: r.kind(), Title: r.title(), ApprovedBy: r.ApprovedBy, Author: r.Author, When: r.When}
	if r.Reason != "" {
		b.Body = "Reason: " + r.Reason
	}
	return s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		plan, err := planRetirement(ctx, tx.ReadPage, r)
		if err != nil {
			return err
		}
		for _, c := range plan.Pages {
			if _, err := tx.Put(ctx, c.Path, c.page, c.Role); err != nil {
				return err
			}
		}
		return nil
	})
}

// PlanRetire computes what Retire would change at the space's head,
// writing nothing.
func PlanRetire(ctx context.Context, s *wiki.Space, r Retirement) (*LifecyclePlan, error) {
	r, err := checkRetirement(r)
	if err != nil {
		return nil, err
	}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	return planRetirement(ctx, func(ctx context.Context, p string) (*wiki.PageAt, error) {
		if head == "" {
			return nil, fmt.Errorf("%s: %w", p, wiki.ErrNotFound)
		}
		return s.ReadPage(ctx, head, p)
	}, r)
}

// status is the status Old goes to.
func (r Retirement) status() string {
	switch {
	case r.Status != "":
		return r.Status
	case r.New != "":
		return content.StatusSuperseded
	}
	return content.StatusRetracted
}

func (r Retirement) kind() string {
	switch r.status() {
	case content.StatusSuperseded:
		return wiki.KindSupersede
	case content.StatusObsolete:
		return wiki.KindObsolete
	case content.StatusArchived:
		return wiki.KindArchive
	}
	return wiki.KindRetract
}

func (r Retirement) title() string {
	if r.New != "" {
		return "supersede " + r.Old + " by " + r.New
	}
	return r.kind() + " " + r.Old
}

// checkRetirement checks what needs no repository: the paths, the reason
// and the approver.
func checkRetirement(r Retirement) (Retirement, error) {
	op := r.kind()
	if r.Author.Kind != content.AuthorAgent || r.ApprovedBy != "" {
		if err := checkApprover(op, r.ApprovedBy); err != nil {
			return r, err
		}
	}
	var err error
	if r.Old, err = retirePath(op, r.Old); err != nil {
		return r, err
	}
	if r.New != "" {
		if r.status() != content.StatusSuperseded {
			return r, fmt.Errorf("%s %s: a page is %s with no successor (supersede it instead)", op, r.Old, r.Status)
		}
		if r.New, err = retirePath(op, r.New); err != nil {
			return r, err
		}
		if r.New == r.Old {
			return r, fmt.Errorf("supersede %s: %w", r.Old, errSelfSupersede)
		}
		return r, nil
	}
	r.Reason = oneLine(r.Reason)
	switch r.status() {
	case content.StatusRetracted:
		if r.Reason == "" {
			return r, fmt.Errorf("retract %s: %w", r.Old, errNoReason)
		}
	case content.StatusObsolete, content.StatusArchived:
	default:
		return r, fmt.Errorf("%s %s: no lifecycle step leads to %q", op, r.Old, r.Status)
	}
	if r.Reason == "" {
		return r, nil
	}
	return r, CheckLine(op, "reason", r.Reason)
}

func retirePath(op, p string) (string, error) {
	clean, err := content.CleanPath(strings.TrimSpace(p))
	if err != nil {
		return "", fmt.Errorf("%s: %w", op, err)
	}
	if wiki.IsIndexPage(clean) || !strings.HasSuffix(clean, ".md") {
		return "", fmt.Errorf("%s %s: %w (the hub, spokes and log are generated)", op, clean, errNotPage)
	}
	return clean, nil
}

// planRetirement reads the pages through read and decides every change.
func planRetirement(ctx context.Context, read pageReader, r Retirement) (*LifecyclePlan, error) {
	op := r.kind()
	old, err := readLifecyclePage(ctx, read, op, r.Old)
	if err != nil {
		return nil, err
	}
	plan := &LifecyclePlan{Kind: op, Title: r.title()}
	if to := r.status(); to == content.StatusObsolete || to == content.StatusArchived {
		if err := mayBecome(old.Page.Meta, to); err != nil {
			return nil, fmt.Errorf("%s %s: %w", op, r.Old, err)
		}
		plan.setStatus(old, to)
		if sum := summaryOf(ctx, read, old); sum != nil && mayBecome(sum.Page.Meta, to) == nil {
			plan.setStatus(sum, to)
		}
		return plan, plan.repin(ctx, read)
	}
	if r.New == "" {
		if old.Page.Meta.Status == content.StatusRetracted {
			return nil, fmt.Errorf("retract %s: %w: already retracted (%s)", r.Old, errRetired, old.Page.Meta.Retraction)
		}
		plan.retract(old, r.Reason)
		if sum := summaryOf(ctx, read, old); sum != nil && sum.Page.Meta.Status != content.StatusRetracted {
			plan.retract(sum, r.Reason)
		}
		return plan, plan.repin(ctx, read)
	}
	succ, err := readLifecyclePage(ctx, read, op, r.New)
	if err != nil {
		return nil, err
	}
	if err := checkSupersede(ctx, read, old, succ); err != nil {
		return nil, err
	}
	plan.supersede(old, succ)
	if sum := summaryOf(ctx, read, old); sum != nil && !content.Retired(sum.Page.Meta.Status) {
		next := succ
		if ns := summaryOf(ctx, read, succ); ns != nil {
			next = ns
		}
		plan.supersede(sum, next)
	}
	return plan, plan.repin(ctx, read)
}

func readLifecyclePage(ctx context.Context, read pageReader, op, p string) (*wiki.PageAt, error) {
	pa, err := read(ctx, p)
	if errors.Is(err, wiki.ErrNotFound) {
		return nil, fmt.Errorf("%s %s: no such page", op, p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return pa, nil
}

// checkSupersede refuses a supersede that would retire a retired page,
// name a retired successor, or close a cycle.
func checkSupersede(ctx context.Context, read pageReader, old, succ *wiki.PageAt) error {
	om, sm := old.Page.Meta, succ.Page.Meta
	at := succ
	for range maxChain {
		next := at.Page.Meta.SupersededBy
		if next == "" {
			break
		}
		if next == old.Path {
			return fmt.Errorf("supersede %s by %s: %w (%s is superseded, by way of its successors, by %s)", old.Path, succ.Path, errCycle, succ.Path, old.Path)
		}
		pa, err := read(ctx, next)
		if err != nil {
			break
		}
		at = pa
	}
	switch {
	case om.Status == content.StatusSuperseded:
		return fmt.Errorf("supersede %s: %w: already superseded by %s", old.Path, errRetired, om.SupersededBy)
	case content.Retired(om.Status):
		return fmt.Errorf("supersede %s: %w: it is %s", old.Path, errRetired, om.Status)
	case sm.Status == content.StatusSuperseded:
		return fmt.Errorf("supersede %s by %s: %w: the successor is itself superseded by %s; name that page", old.Path, succ.Path, errRetired, sm.SupersededBy)
	case content.Retired(sm.Status):
		return fmt.Errorf("supersede %s by %s: %w: the successor is %s", old.Path, succ.Path, errRetired, sm.Status)
	}
	return nil
}

// summaryOf returns the summary pt derived from a source page, nil when
// the page is no source or has none.
func summaryOf(ctx context.Context, read pageReader, src *wiki.PageAt) *wiki.PageAt {
	if src.Page.Meta.Kind != content.KindSource {
		return nil
	}
	pa, err := read(ctx, summariesDir+strings.TrimPrefix(src.Path, sourcesDir))
	if err != nil || pa.Page.Meta.Kind != content.KindSummary {
		return nil
	}
	if df := pa.Page.Meta.Provenance.DerivedFrom; len(df) == 0 || df[0].Path != src.Path {
		return nil
	}
	return pa
}

// mayBecome refuses a lifecycle step that goes backwards or repeats: a
// page becomes obsolete from active (or stale) or superseded, and is
// archived from any of those or obsolete or expired. A retracted page
// stays retracted: it was wrong, not old.
func mayBecome(m content.Meta, to string) error {
	from := statusOr(m.Status)
	switch {
	case from == to:
		return fmt.Errorf("%w: already %s", errRetired, to)
	case from == content.StatusRetracted:
		return fmt.Errorf("%w: it is retracted (%s)", errRetired, m.Retraction)
	case to == content.StatusObsolete && (from == content.StatusArchived || from == content.StatusExpired):
		return fmt.Errorf("%w: it is %s", errRetired, from)
	}
	return nil
}

func (plan *LifecyclePlan) setStatus(pa *wiki.PageAt, to string) {
	pg := plan.page(pa)
	pg.Meta.Status = to
	plan.add(pa, wiki.RoleRetired, pg)
}

func (plan *LifecyclePlan) retract(pa *wiki.PageAt, reason string) {
	pg := plan.page(pa)
	pg.Meta.Status, pg.Meta.Retraction = content.StatusRetracted, reason
	plan.add(pa, wiki.RoleRetired, pg)
}

func (plan *LifecyclePlan) supersede(old, succ *wiki.PageAt) {
	pg := plan.page(old)
	pg.Meta.Status, pg.Meta.SupersededBy = content.StatusSuperseded, succ.Path
	plan.add(old, wiki.RoleRetired, pg)
	np := plan.page(succ)
	if slices.Contains(np.Meta.Supersedes, old.Path) {
		return
	}
	np.Meta.Supersedes = append(slices.Clone(np.Meta.Supersedes), old.Path)
	plan.add(succ, wiki.RoleSuccessor, np)
}

// page is the page as the plan leaves it so far: a copy, changed by the
// caller and then added.
func (plan *LifecyclePlan) page(pa *wiki.PageAt) *content.Page {
	for _, c := range plan.Pages {
		if c.Path == pa.Path {
			cp := *c.page
			return &cp
		}
	}
	cp := *pa.Page
	return &cp
}

func (plan *LifecyclePlan) add(pa *wiki.PageAt, role string, pg *content.Page) {
	m := pg.Meta
	c := LifecycleChange{Path: pa.Path, Role: role, Status: statusOr(m.Status), SupersededBy: m.SupersededBy,
		Owner: m.Author, HumanOwned: m.OwnedByHuman(), page: pg, prev: pa}
	for i := range plan.Pages {
		if plan.Pages[i].Path == pa.Path {
			if plan.Pages[i].Role == wiki.RoleRetired {
				c.Role = wiki.RoleRetired
			}
			c.prev = plan.Pages[i].prev
			plan.Pages[i] = c
			return
		}
	}
	plan.Pages = append(plan.Pages, c)
}

// repin keeps a source's summary pinned to it when the plan changes only
// the source's frontmatter: the summary still says what the text says. A
// summary whose pin had drifted already is left drifting, for lint.
func (plan *LifecyclePlan) repin(ctx context.Context, read pageReader) error {
	for _, c := range slices.Clone(plan.Pages) {
		if c.page.Meta.Kind != content.KindSource {
			continue
		}
		sum := summaryOf(ctx, read, c.prev)
		if sum == nil || sum.Page.Meta.Provenance.DerivedFrom[0].Revision != c.prev.Revision {
			continue
		}
		data, err := c.page.Bytes()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Path, err)
		}
		pg := plan.page(sum)
		pg.Meta.Provenance.DerivedFrom = slices.Clone(pg.Meta.Provenance.DerivedFrom)
		pg.Meta.Provenance.DerivedFrom[0].Revision = wiki.BlobID(data)
		role := wiki.RoleSummary
		for _, x := range plan.Pages {
			if x.Path == sum.Path {
				role = x.Role
			}
		}
		plan.add(sum, role, pg)
	}
	return nil
}

func statusOr(s string) string {
	if s == "" {
		return content.StatusActive
	}
	return s
}
