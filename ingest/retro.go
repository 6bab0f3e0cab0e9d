package ingest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/durability"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// retrosDir is where cycle-close retrospectives live (DESIGN.md §2).
const retrosDir = "retros/"

// retroTopic lists every retrospective in one spoke.
const retroTopic = "retrospectives"

// RetroRequest closes a cycle. Zero values: Until is HEAD, Since is the
// commit of the previous retrospective that was not reverted (else the
// beginning of history), Now is the current time.
type RetroRequest struct {
	Cycle      string    // the cycle's name: "2026-11", "sprint 42"
	Since      string    // revision the cycle starts after
	Until      string    // revision the cycle ends at
	Now        time.Time // the cycle's end; zero reads the space's clock
	ApprovedBy string
	Author     wiki.Author // zero means the agent "pt"
}

// RetroResult is what closing a cycle did: the --json output of pt retro.
type RetroResult struct {
	Cycle   string     `json:"cycle"`
	Verdict string     `json:"verdict"` // filed | skipped
	Gate    string     `json:"gate"`
	Reason  string     `json:"reason"`
	Page    string     `json:"page"`
	Batch   string     `json:"batch,omitempty"`
	Commit  string     `json:"commit,omitempty"`
	Stats   RetroStats `json:"stats"`
}

// RetroStats are a cycle's own statistics, from which its retrospective is
// written.
type RetroStats struct {
	Since   string         `json:"since,omitempty"` // "" for the beginning of history
	Until   string         `json:"until"`
	From    time.Time      `json:"from,omitzero"`
	To      time.Time      `json:"to"`
	Commits int            `json:"commits"`
	Batches map[string]int `json:"batches"` // by kind; "git" for commits that are not pt batches
	// Pages counts content pages (not the hub, spokes, log or findings).
	PagesAdded   int `json:"pages_added"`
	PagesChanged int `json:"pages_changed"`
	PagesRemoved int `json:"pages_removed"`
	// Consults filed are the cycle's file-back batches (less those
	// reverted); skipped ones come from this clone's local consult log.
	ConsultsFiled   int            `json:"consults_filed"`
	ConsultsSkipped map[string]int `json:"consults_skipped"` // by gate
	Filed           []string       `json:"filed,omitempty"`  // synthesis pages written in the cycle
	FindingsOpened  int            `json:"findings_opened"`
	FindingsClosed  int            `json:"findings_resolved"`
	FindingsOpen    int            `json:"findings_open"` // open at the end of the cycle
	Topics          []TopicCount   `json:"busiest_topics,omitempty"`
}

// TopicCount is a topic and how many of the cycle's added or changed pages
// it holds.
type TopicCount struct {
	Topic string `json:"topic"`
	Pages int    `json:"pages"`
}

// busiestTopics bounds the topics a retrospective names.
const busiestTopics = 5

// errBadRetro is wrapped by every refusal of a retro request.
var errBadRetro = errors.New("bad retro")

// Retro closes a cycle: it gathers the cycle's statistics (batches by kind,
// pages added and changed, consults filed and skipped, lint findings opened
// and resolved, the busiest topics) and files them as retros/<slug>.md (or
// <slug>-N.md when another cycle's name has the slug) in one retro batch. A retrospective cites nothing and is a record of the
// past, so the citation and durability gates do not apply; the
// classification floor and the dedup do. It is idempotent per cycle: once
// a retrospective for the cycle exists, closing it again writes nothing and
// says so. An error leaves nothing behind, so a failed close can be retried.
func Retro(ctx context.Context, s *wiki.Space, r RetroRequest) (*RetroResult, error) {
	if err := checkLines("retro", []lineField{{"cycle", r.Cycle}, {"approved_by", r.ApprovedBy}}); err != nil {
		return nil, err
	}
	cycle := oneLine(r.Cycle)
	if cycle == "" {
		return nil, fmt.Errorf("retro: %w: name the cycle", errBadRetro)
	}
	if strings.ContainsAny(cycle, `/\`) || strings.Contains(cycle, "..") {
		return nil, fmt.Errorf("retro: %w: cycle name %q looks like a path; name it like 2026-11 or \"sprint 42\"", errBadRetro, cycle)
	}
	if len(cycle) > 200 {
		return nil, fmt.Errorf("retro: %w: cycle name of %d bytes, limit 200", errBadRetro, len(cycle))
	}
	if !hasLetterOrDigit(cycle) {
		return nil, fmt.Errorf("retro: %w: cycle name %q has no letter or digit to name its page by; name it like 2026-11 or \"sprint 42\"", errBadRetro, cycle)
	}
	// Now bounds the cycle; the batch is dated by the space's clock.
	now, when := r.Now, time.Time{}
	if now.IsZero() {
		now = s.Now()
		when = now
	}
	if err := CheckClock(now); err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	now = now.UTC().Truncate(time.Second)
	out := &RetroResult{Cycle: cycle}
	skip := func(gate, reason string) (*RetroResult, error) {
		out.Verdict, out.Gate, out.Reason = VerdictSkipped, gate, reason
		return out, nil
	}

	head, err := s.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	if head == "" {
		return nil, fmt.Errorf("retro: the space has no commits")
	}
	until, err := s.Resolve(ctx, orHead(r.Until))
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	hist, err := s.History(ctx, until, 0)
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	since := wiki.Rev("")
	if r.Since != "" {
		if since, err = s.Resolve(ctx, r.Since); err != nil {
			return nil, fmt.Errorf("retro: %w", err)
		}
	} else {
		since = previousRetro(hist)
	}
	cycleCommits, err := between(hist, since, until)
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}

	// The dedup: a cycle is closed once. It is checked at HEAD, whatever
	// range the cycle covers, and again in the batch.
	pl, err := placeRetro(ctx, s, head, cycle)
	if err != nil {
		return nil, err
	}
	out.Page = pl.page
	if skipped, why := pl.closedReason(cycle); skipped {
		return skip(GateNearDuplicate, why)
	}

	cfg := s.Config()
	if !cfg.CompoundingOn() {
		return skip(GateCompounding, "file-back is off in kb.yaml (compounding: false)")
	}
	if c := cfg.SpaceClassification(); !unclassified(c) {
		return skip(GateClassification, fmt.Sprintf("the space is classified %s; only UNCLASSIFIED knowledge is filed back", c))
	}

	st, titles, err := cycleStats(ctx, s, since, until, cycleCommits)
	if err != nil {
		return nil, err
	}
	end := st.To
	if r.Until == "" {
		end = now // consults skipped after the last commit belong to this cycle too
	}
	start := st.From
	if since == "" {
		start = time.Time{} // from the beginning: every recorded consult up to the end
	}
	st.ConsultsSkipped, err = skippedConsults(s, newConsultWindow(hist, cycleCommits, since, r.Until == "", start, end))
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	out.Stats = *st

	author := r.Author
	if author.Name == "" {
		author = wiki.Author{Name: "pt", Kind: content.AuthorAgent}
	}
	b := wiki.Batch{Kind: wiki.KindRetro, Title: "retrospective for " + cycle, ApprovedBy: oneLine(r.ApprovedBy), Author: author, When: when}
	page := pl.page
	res, err := s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		pl, err := placeRetro(ctx, s, tx.Head(), cycle)
		if err != nil {
			return err
		}
		if skipped, _ := pl.closedReason(cycle); skipped {
			return nil // closed by a concurrent retro: write nothing
		}
		page = pl.page // another cycle of the same slug may have taken the name meanwhile
		tb := tx.Batch()
		pg := content.NewPage(content.Meta{
			Title:          retroTitlePrefix + cycle,
			Kind:           content.KindRetrospective,
			Topics:         []string{retroTopic},
			Summary:        retroLine(st),
			Author:         content.Author{Kind: author.Kind, Name: author.Name},
			Status:         content.StatusActive,
			Classification: content.Unclassified,
			Durability:     string(durability.Durable),
			Provenance:     content.Provenance{Batch: tb.ID, ApprovedBy: b.ApprovedBy},
			Created:        tb.When,
			Updated:        tb.When,
		}, []byte(retroBody(page, cycle, st, titles)))
		data, err := pg.Bytes()
		if err != nil {
			return fmt.Errorf("retro %s: %w", page, err)
		}
		if err := checkSecretsAs("retro", page, data); err != nil {
			return err
		}
		_, err = tx.PutFile(ctx, page, data, wiki.RoleRetro)
		return err
	})
	if err != nil {
		return nil, err
	}
	out.Page = page
	if res.Unchanged {
		return skip(GateNearDuplicate, fmt.Sprintf("cycle %q was closed by another writer meanwhile: %s", cycle, page))
	}
	out.Verdict, out.Reason, out.Batch, out.Commit = VerdictFiled, "cycle closed", res.Batch, res.Commit
	return out, nil
}

func orHead(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

// previousRetro is the commit of the latest retro batch in hist that no
// later batch reverted, where the next cycle starts; "" when there is none.
// A reverted retrospective closed nothing: the cycle it covered is open
// again, and closing it counts from where it began.
func previousRetro(hist []wiki.Commit) wiki.Rev {
	reverted := revertedBatches(hist)
	for _, c := range hist {
		if c.Batch != nil && c.Batch.Kind == wiki.KindRetro && !reverted[c.Batch.BatchID] {
			return wiki.Rev(c.Hash)
		}
	}
	return ""
}

// revertedBatches are the ids of the batches among commits (newest first)
// that a revert still in effect undoes: a revert that was itself reverted
// undoes nothing, so the batch it reverted counts again.
func revertedBatches(commits []wiki.Commit) map[string]bool {
	reverted := map[string]bool{}
	for _, c := range commits { // a revert is newer than what it reverts
		if c.Batch == nil || reverted[c.Batch.BatchID] {
			continue
		}
		if c.Batch.Kind == wiki.KindRevert && c.Batch.Reverts != "" {
			reverted[c.Batch.Reverts] = true
		}
	}
	return reverted
}

// between returns the commits of hist (newest first, from until) after
// since; since must be on until's first-parent history.
func between(hist []wiki.Commit, since, until wiki.Rev) ([]wiki.Commit, error) {
	if since == "" {
		return hist, nil
	}
	for i, c := range hist {
		if wiki.Rev(c.Hash) == since {
			return hist[:i], nil
		}
	}
	return nil, fmt.Errorf("%w: --since %s is not an ancestor of --until %s", errBadRetro, shortRev(string(since)), shortRev(string(until)))
}

// cycleStats counts what the cycle's commits did.
// titles maps the filed syntheses to their titles.
func cycleStats(ctx context.Context, s *wiki.Space, since, until wiki.Rev, commits []wiki.Commit) (st *RetroStats, titles map[string]string, err error) {
	titles = map[string]string{}
	st = &RetroStats{Since: string(since), Until: string(until), Commits: len(commits), Batches: map[string]int{}, ConsultsSkipped: map[string]int{}}
	reverted := revertedBatches(commits)
	for _, c := range commits {
		kind := "git"
		if c.Batch != nil {
			kind = c.Batch.Kind
		}
		st.Batches[kind]++
		if kind == wiki.KindFileBack && !reverted[c.Batch.BatchID] {
			st.ConsultsFiled++
		}
	}
	if len(commits) > 0 {
		st.To = commits[0].When.UTC()
	}
	if since != "" {
		sh, err := s.History(ctx, since, 1)
		if err != nil {
			return nil, nil, fmt.Errorf("retro: %w", err)
		}
		if len(sh) > 0 {
			st.From = sh[0].When.UTC()
		}
		if len(commits) == 0 {
			st.To = st.From
		}
	} else if len(commits) > 0 {
		st.From = commits[len(commits)-1].When.UTC()
	}

	diff, err := s.Diff(ctx, since, until)
	if err != nil {
		return nil, nil, fmt.Errorf("retro: %w", err)
	}
	topics := map[string]*TopicCount{}
	for _, d := range diff {
		if !strings.HasSuffix(d.Path, ".md") || wiki.IsIndexPage(d.Path) || wiki.IsGuidance(d.Path) {
			continue
		}
		switch {
		case d.From == "":
			st.PagesAdded++
		case d.To == "":
			st.PagesRemoved++
			continue
		default:
			st.PagesChanged++
		}
		pa, err := s.ReadPage(ctx, until, d.Path)
		if err != nil {
			continue
		}
		if pa.Page.Meta.Kind == content.KindSynthesis && d.From == "" {
			st.Filed = append(st.Filed, d.Path)
			titles[d.Path] = oneLine(pa.Page.Meta.Title)
		}
		if pa.Page.Meta.Kind == content.KindRetrospective {
			continue // retros would make "retrospectives" the busiest topic
		}
		for _, t := range pa.Page.Meta.Topics {
			t = oneLine(t)
			k := content.TopicSlug(t)
			if !content.IsTopic(t) {
				continue
			}
			if topics[k] == nil {
				topics[k] = &TopicCount{Topic: t}
			}
			topics[k].Pages++
		}
	}
	for _, tc := range topics {
		st.Topics = append(st.Topics, *tc)
	}
	sort.Slice(st.Topics, func(i, j int) bool {
		if st.Topics[i].Pages != st.Topics[j].Pages {
			return st.Topics[i].Pages > st.Topics[j].Pages
		}
		return st.Topics[i].Topic < st.Topics[j].Topic
	})
	st.Topics = st.Topics[:min(busiestTopics, len(st.Topics))]

	// Findings opened and resolved by the cycle's lint runs: what changed
	// in findings.json between since and until.
	before, err := lint.Findings(ctx, s, since)
	if err != nil {
		return nil, nil, fmt.Errorf("retro: %w", err)
	}
	after, err := lint.Findings(ctx, s, until)
	if err != nil {
		return nil, nil, fmt.Errorf("retro: %w", err)
	}
	for _, f := range after {
		if f.Open() {
			st.FindingsOpen++
		}
	}
	st.FindingsOpened, st.FindingsClosed = findingsMoved(before, after)
	return st, titles, nil
}

// retroLine is the retrospective's one-line summary.
func retroLine(st *RetroStats) string {
	batches := 0
	for _, n := range st.Batches {
		batches += n
	}
	skipped := 0
	for _, n := range st.ConsultsSkipped {
		skipped += n
	}
	return fmt.Sprintf("%d commits; %d pages added, %d changed; %d consults filed, %d skipped; %d findings opened, %d resolved.",
		batches, st.PagesAdded, st.PagesChanged, st.ConsultsFiled, skipped, st.FindingsOpened, st.FindingsClosed)
}

// retroBody renders the statistics as the retrospective's body.
func retroBody(p, cycle string, st *RetroStats, titles map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Retrospective: %s\n\n", cycle)
	from := "the beginning of the space"
	if st.Since != "" {
		from = fmt.Sprintf("commit %s (%s)", shortRev(st.Since), st.From.Format(time.DateOnly))
	}
	fmt.Fprintf(&b, "From %s to commit %s (%s): %d commit%s.\n\n", from, shortRev(st.Until), st.To.Format(time.DateOnly), st.Commits, pluralS(st.Commits))

	b.WriteString("## Batches\n\n")
	if len(st.Batches) == 0 {
		b.WriteString("None.\n\n")
	} else {
		b.WriteString("| Kind | Count |\n| --- | ---: |\n")
		kinds := make([]string, 0, len(st.Batches))
		for k := range st.Batches {
			kinds = append(kinds, k)
		}
		sort.Slice(kinds, func(i, j int) bool {
			if st.Batches[kinds[i]] != st.Batches[kinds[j]] {
				return st.Batches[kinds[i]] > st.Batches[kinds[j]]
			}
			return kinds[i] < kinds[j]
		})
		for _, k := range kinds {
			fmt.Fprintf(&b, "| %s | %d |\n", k, st.Batches[k])
		}
		b.WriteString("\n")
	}

	b.WriteString("## Pages\n\n")
	fmt.Fprintf(&b, "- Added: %d\n- Changed: %d\n- Removed: %d\n\n", st.PagesAdded, st.PagesChanged, st.PagesRemoved)

	b.WriteString("## Consults\n\n")
	fmt.Fprintf(&b, "- Filed back: %d\n", st.ConsultsFiled)
	skipped := 0
	gates := make([]string, 0, len(st.ConsultsSkipped))
	for g, n := range st.ConsultsSkipped {
		skipped += n
		gates = append(gates, g)
	}
	sort.Strings(gates)
	fmt.Fprintf(&b, "- Skipped: %d", skipped)
	if len(gates) > 0 {
		parts := make([]string, 0, len(gates))
		for _, g := range gates {
			parts = append(parts, fmt.Sprintf("%s %d", g, st.ConsultsSkipped[g]))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	b.WriteString(" (counted from the consult log of the clone that closed the cycle)\n")
	if len(st.Filed) > 0 {
		b.WriteString("\nAnswers filed in this cycle:\n\n")
		for _, f := range st.Filed {
			title := titles[f]
			if title == "" {
				title = f
			}
			fmt.Fprintf(&b, "- [%s](%s)\n", content.EscapeInline(title), linkTarget(content.RelLink(p, f)))
		}
	}
	b.WriteString("\n## Lint findings\n\n")
	fmt.Fprintf(&b, "- Opened: %d\n- Resolved: %d\n- Open at the close: %d\n", st.FindingsOpened, st.FindingsClosed, st.FindingsOpen)

	if len(st.Topics) > 0 {
		b.WriteString("\n## Busiest topics\n\n")
		for _, t := range st.Topics {
			fmt.Fprintf(&b, "- [%s](%s): %d page%s added or changed\n", content.EscapeInline(t.Topic), linkTarget(content.RelLink(p, wiki.SpokePath(t.Topic))), t.Pages, pluralS(t.Pages))
		}
	}
	return b.String()
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}
