package ingest

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/durability"
	"github.com/ptwiki/pt/ingest/internal/neardup"
	"github.com/ptwiki/pt/ingest/internal/sketch"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// gates holds what the file-back gates of one consult read: the space at
// one head, the retrieval result for the question, and the citations as
// they resolve there.
type gates struct {
	space     *wiki.Space
	retriever Retriever
	cfg       content.Config
	head      wiki.Rev
	now       time.Time
	question  string

	res             *retrieve.Result // retrieval for the question; nil until retrieved
	cited           []string         // citations as given or gathered, unchecked
	modelDurability durability.Kind  // a model's verdict, when a model answered
	refs            []citedPage      // citations that resolve to an active content page at head
	bad             []string         // citations that do not, with why
	// read are the cited pages that exist at head, active or not: the
	// classification floor reads them all, since a stale or retracted
	// page's text is as classified as it was when it was active.
	read []citedPage
	// bodies caches the page bodies the near-duplicate gate reads, by path.
	bodies map[string]string
	// unreadable are cited pages that exist but do not parse: their
	// classification is unknown, so the floor stops at them.
	unreadable []string
}

// citedPage is a citation that resolves to a page at head.
type citedPage struct {
	path string
	page *wiki.PageAt
}

// maxSynthesisScan bounds how many synthesis pages the near-duplicate gate
// reads from the listing of synthesis/, on top of the retrieved ones: the
// gate stays cheap however many answers a space has filed.
const maxSynthesisScan = 300

// retrieved runs retrieval for the question once.
func (g *gates) retrieved(ctx context.Context) (*retrieve.Result, error) {
	if g.res != nil || g.head == "" {
		return g.res, nil
	}
	res, err := g.retriever.Query(ctx, retrieve.Request{Question: g.question, Now: g.now})
	if err != nil {
		return nil, fmt.Errorf("consult: %w", err)
	}
	g.res = res
	return res, nil
}

// run applies the gates in order and sets v.Gate and v.Reason on the first
// that stops the answer (and v.Reason alone when all pass).
func (g *gates) run(ctx context.Context, in *consultInput, v *Verdict) error {
	if err := g.resolve(ctx); err != nil {
		return err
	}
	for _, r := range g.refs {
		v.Citations = append(v.Citations, content.Ref{Path: r.path, Revision: r.page.Revision})
	}
	stop := func(gate, reason string) error { v.Gate, v.Reason = gate, reason; return nil }

	// (a) classification floor, and compounding on.
	if !g.cfg.CompoundingOn() {
		return stop(GateCompounding, "file-back is off in kb.yaml (compounding: false)")
	}
	if c := g.cfg.SpaceClassification(); !unclassified(c) {
		return stop(GateClassification, fmt.Sprintf("the space is classified %s; only UNCLASSIFIED knowledge is filed back", c))
	}
	for _, r := range g.read {
		if c := r.page.Page.Meta.Classification; !unclassified(c) {
			return stop(GateClassification, fmt.Sprintf("cited page %s is classified %s; only UNCLASSIFIED knowledge is filed back", r.path, c))
		}
	}
	if len(g.unreadable) > 0 {
		return stop(GateClassification, fmt.Sprintf("cited page %s does not parse, so its classification is unknown; only UNCLASSIFIED knowledge is filed back", g.unreadable[0]))
	}

	// (b) durability: the shortest-lived of the caller's, a model's and the
	// rules' verdicts.
	rule, why := durability.ClassifyAt(in.question, v.Answer, g.now)
	d := durability.Combine(durability.Combine(in.durability, g.modelDurability), rule)
	v.Durability = string(d)
	if d == durability.Ephemeral {
		switch {
		case rule == durability.Ephemeral:
		case in.durability == durability.Ephemeral:
			why = "ephemeral: the caller said so"
		default:
			why = "ephemeral: the model said so"
		}
		return stop(GateDurability, why+"; live state is never filed back")
	}

	// (c) citations.
	if len(g.refs) == 0 {
		if len(g.bad) == 0 {
			return stop(GateCitations, "the answer cites no page")
		}
		return stop(GateCitations, "no citation resolves to a page of the space: "+strings.Join(g.bad, "; "))
	}

	// (d) echo: pt's own extractive answer, or a copy of existing pages.
	if v.AnswerBy == AnswerByExtraction {
		return stop(GateEcho, "pt's extractive answer quotes the pages it cites, so it is an echo by construction and is never filed; "+
			"to file an answer, pass your own (--answer, citing the pages it used) or configure a model (PT_LLM_URL)")
	}
	if p, share, err := g.copied(ctx, v.Answer); err != nil {
		return err
	} else if p != "" {
		echo := threshold(g.cfg.FileBack.Echo, sketch.DefaultCopy)
		return stop(GateEcho, fmt.Sprintf("the answer restates %s (%.2f of its word pairs are copied, ≥ %.2f); cite it instead of filing a copy", p, share, echo))
	}

	// (e) near-duplicate of a synthesis filed within the window.
	if reason, err := g.nearDuplicate(ctx, in.question, v.Answer); err != nil {
		return err
	} else if reason != "" {
		return stop(GateNearDuplicate, reason)
	}
	v.Reason = fmt.Sprintf("passed every gate: %s, %d citation%s", d, len(g.refs), pluralS(len(g.refs)))
	return nil
}

// nearDuplicate finds a synthesis filed within the window that already
// says what the answer says, in the same words or to the same question,
// and returns why; "" when there is none.
func (g *gates) nearDuplicate(ctx context.Context, question, answer string) (string, error) {
	near := threshold(g.cfg.FileBack.NearDuplicate, sketch.DefaultNearDuplicate)
	window := g.cfg.WindowOrDefault()
	syns, err := g.recentSyntheses(ctx, window)
	if err != nil {
		return "", err
	}
	ans := sketch.Fingerprint(answer)
	for _, p := range syns {
		if sim := sketch.Similarity(ans, sketch.Fingerprint(synthesisAnswer(p.Page.Body))); sim >= near {
			return fmt.Sprintf("the answer repeats %s, filed %s (similarity %.2f ≥ %.2f, window %s)",
				p.Path, p.Page.Meta.Created.Format(time.DateOnly), sim, near, content.Duration(window)), nil
		}
	}
	return g.sameQuestion(ctx, question, answer, syns, window)
}

// sameQuestion finds a recent synthesis that answers the same question
// in other words: one whose question has the same content words, or one
// that cites a page in common and draws on the same passages of the pages
// either cites (question and answer together). A better answer to the same
// question replaces the earlier page by superseding it, not by filing a
// second one. It returns the reason, or "" when there is none.
func (g *gates) sameQuestion(ctx context.Context, question, answer string, syns []*wiki.PageAt, window time.Duration) (string, error) {
	cited := map[string]bool{}
	for _, r := range g.refs {
		cited[r.path] = true
	}
	for _, p := range syns {
		m := p.Page.Meta
		q := m.Provenance.Question
		if q == "" {
			q = m.Title
		}
		filed := fmt.Sprintf("%s, filed %s", p.Path, m.Created.Format(time.DateOnly))
		if o := neardup.QuestionOverlap(question, q); o >= neardup.SameQuestion {
			return fmt.Sprintf("the same question was answered in %s (question overlap %.2f ≥ %.2f, window %s); a better answer replaces it by superseding it, not as a second page",
				filed, o, neardup.SameQuestion, content.Duration(window)), nil
		}
		shared := false
		paths := []string{}
		for _, r := range g.refs {
			paths = append(paths, r.path)
		}
		for _, c := range m.Provenance.Citations {
			if cited[c.Path] {
				shared = true
			} else {
				paths = append(paths, c.Path)
			}
		}
		if !shared {
			continue
		}
		gr, err := g.groundOf(ctx, paths)
		if err != nil {
			return "", err
		}
		o := neardup.Overlap(gr.Footprint(question+"\n"+answer), gr.Footprint(q+"\n"+synthesisAnswer(p.Page.Body)))
		if o >= neardup.SameGround {
			return fmt.Sprintf("the answer covers the same question as %s (grounded overlap %.2f ≥ %.2f on the pages both cite, window %s); a better answer replaces it by superseding it, not as a second page",
				filed, o, neardup.SameGround, content.Duration(window)), nil
		}
	}
	return "", nil
}

// groundOf reads the pages at head (once per consult) as a ground; pages
// gone or unreadable are left out.
func (g *gates) groundOf(ctx context.Context, paths []string) (neardup.Ground, error) {
	if g.bodies == nil {
		g.bodies = map[string]string{}
	}
	var bodies []string
	for _, p := range paths {
		b, ok := g.bodies[p]
		if !ok {
			pa, err := g.readPage(ctx, p)
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err == nil {
				b = string(pa.Page.Body)
			}
			g.bodies[p] = b
		}
		bodies = append(bodies, b)
	}
	return neardup.GroundOf(bodies), nil
}

// resolve checks every citation: a safe path to a page that exists at head,
// is content (not the hub, a spoke or the log) and is active now. Those
// that fail are kept, with why, for the reason of the citation gate; those
// whose page exists are kept in g.read whatever its status.
func (g *gates) resolve(ctx context.Context) error {
	seen := map[string]bool{}
	for _, raw := range g.cited {
		clean, err := citedPath(raw)
		if err != nil {
			g.bad = append(g.bad, fmt.Sprintf("%q is not a page path of the space", raw))
			continue
		}
		if seen[clean] {
			continue
		}
		seen[clean] = true
		if wiki.IsIndexPage(clean) {
			g.bad = append(g.bad, clean+" is navigation (hub, spoke or log), not knowledge")
			continue
		}
		pa, err := g.readPage(ctx, clean)
		switch {
		case errors.Is(err, wiki.ErrNotFound):
			g.bad = append(g.bad, clean+" does not exist")
			continue
		case err != nil:
			var pe *content.ParseError
			if errors.As(err, &pe) {
				g.bad = append(g.bad, clean+" does not parse")
				g.unreadable = append(g.unreadable, clean)
				continue
			}
			return fmt.Errorf("consult: %w", err)
		}
		g.read = append(g.read, citedPage{path: clean, page: pa})
		if !pa.Page.Meta.Active(g.now) {
			g.bad = append(g.bad, clean+" is not active ("+statusOf(pa.Page.Meta, g.now)+")")
			continue
		}
		g.refs = append(g.refs, citedPage{path: clean, page: pa})
	}
	return nil
}

// citedPath is the page a citation names, in canonical form: the anchor
// dropped, and "//", "./" and "dir/.." collapsed as path.Clean does, so
// that every spelling of a page is the same page to the gates (a classified
// page cited as pages//vault.md is still classified). What is left must
// pass content.CleanPath: a path that climbs out of the space, is absolute
// or hidden is no page.
func citedPath(raw string) (string, error) {
	p, _, _ := strings.Cut(strings.TrimSpace(raw), "#")
	if p == "" {
		return "", content.ErrUnsafePath
	}
	return content.CleanPath(path.Clean(p))
}

func (g *gates) readPage(ctx context.Context, p string) (*wiki.PageAt, error) {
	if g.head == "" {
		return nil, fmt.Errorf("%s: %w", p, wiki.ErrNotFound)
	}
	return g.space.ReadPage(ctx, g.head, p)
}

// copied finds the page the answer copies: the echo candidate of which
// the largest share of the answer's word pairs is verbatim, or the cited
// pages taken together (an answer pasted from two pages is a copy too),
// when that share reaches the echo threshold. It returns "" when the
// answer is in its own words.
func (g *gates) copied(ctx context.Context, answer string) (string, float64, error) {
	pages, err := g.echoCandidates(ctx)
	if err != nil {
		return "", 0, err
	}
	a := sketch.ShinglesOf(answer)
	best, bestShare := "", 0.0
	cited := map[string]bool{}
	for _, r := range g.refs {
		cited[r.path] = true
	}
	var all []sketch.Shingles
	var names []string
	for _, p := range pages {
		ps := sketch.ShinglesOf(string(p.Page.Body))
		if sh := a.Share(ps); sh > bestShare {
			best, bestShare = p.Path, sh
		}
		if cited[p.Path] {
			all = append(all, ps)
			names = append(names, p.Path)
		}
	}
	if len(all) > 1 {
		if sh := a.Share(all...); sh > bestShare && sh-bestShare > 0.1 {
			best, bestShare = strings.Join(names, " and "), sh
		}
	}
	if bestShare < threshold(g.cfg.FileBack.Echo, sketch.DefaultCopy) {
		return "", bestShare, nil
	}
	return best, bestShare, nil
}

// echoCandidates are the pages an answer may merely restate: the cited
// pages and the pages retrieved for the question, syntheses left out (a
// synthesis that says the same is the near-duplicate gate's business).
func (g *gates) echoCandidates(ctx context.Context) ([]*wiki.PageAt, error) {
	var out []*wiki.PageAt
	seen := map[string]bool{}
	for _, r := range g.refs {
		seen[r.path] = true
		if r.page.Page.Meta.Kind != content.KindSynthesis {
			out = append(out, r.page)
		}
	}
	res, err := g.retrieved(ctx)
	if err != nil || res == nil {
		return out, err
	}
	for _, h := range res.Results {
		if seen[h.Path] || wiki.IsIndexPage(h.Path) || h.Kind == content.KindSynthesis {
			continue
		}
		seen[h.Path] = true
		pa, err := g.readPage(ctx, h.Path)
		if err != nil {
			continue // gone or unparseable since the index saw it: nothing to echo
		}
		if pa.Page.Meta.Kind != content.KindSynthesis {
			out = append(out, pa)
		}
	}
	return out, nil
}

// recentSyntheses are the active synthesis pages created within window of
// now: those retrieved for the question first, then those of the same slug
// family, then the rest of synthesis/ up to maxSynthesisScan.
func (g *gates) recentSyntheses(ctx context.Context, window time.Duration) ([]*wiki.PageAt, error) {
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if res, err := g.retrieved(ctx); err != nil {
		return nil, err
	} else if res != nil {
		for _, h := range res.Results {
			if h.Kind == content.KindSynthesis || strings.HasPrefix(h.Path, synthesisDir) {
				add(h.Path)
			}
		}
	}
	if g.head != "" {
		es, err := g.space.List(ctx, g.head, synthesisDir)
		if err != nil {
			return nil, fmt.Errorf("consult: %w", err)
		}
		slug := synthesisDir + content.Slug(g.question)
		var rest []string
		for _, e := range es {
			if !strings.HasSuffix(e.Path, ".md") {
				continue
			}
			if e.Path == slug+".md" || strings.HasPrefix(e.Path, slug+"-") {
				add(e.Path)
			} else {
				rest = append(rest, e.Path)
			}
		}
		// The bound keeps the cost flat however many answers were filed;
		// the retrieved and same-slug syntheses, the likely repeats, are
		// read whatever the bound.
		for _, p := range rest {
			if len(paths) >= maxSynthesisScan {
				break
			}
			add(p)
		}
	}
	var out []*wiki.PageAt
	for _, p := range paths {
		pa, err := g.readPage(ctx, p)
		if err != nil {
			continue
		}
		m := pa.Page.Meta
		if m.Kind != content.KindSynthesis || !m.Active(g.now) {
			continue
		}
		if !m.Created.IsZero() && g.now.Sub(m.Created) > window {
			continue
		}
		out = append(out, pa)
	}
	return out, nil
}

// synthesisAnswer is the answer inside a synthesis page's body: what comes
// after the question heading and before the Sources section.
func synthesisAnswer(body []byte) string {
	s := string(body)
	if strings.HasPrefix(s, "# ") {
		if _, rest, ok := strings.Cut(s, "\n"); ok {
			s = rest
		} else {
			s = ""
		}
	}
	if i := strings.Index(s, "\n"+sourcesHeading+"\n"); i >= 0 {
		s = s[:i]
	} else if strings.HasPrefix(s, sourcesHeading+"\n") {
		s = ""
	}
	return strings.TrimSpace(s)
}

// topicsOf ranks the cited pages' topics, most common first (ties in order
// of first appearance), at most max.
func topicsOf(refs []citedPage, max int) []string {
	count := map[string]int{}
	first := map[string]int{}
	name := map[string]string{}
	for _, r := range refs {
		for _, t := range r.page.Page.Meta.Topics {
			t = oneLine(t)
			k := content.TopicSlug(t)
			if !content.IsTopic(t) {
				continue
			}
			if _, ok := count[k]; !ok {
				first[k] = len(first)
				name[k] = t
			}
			count[k]++
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return first[keys[i]] < first[keys[j]]
	})
	var out []string
	for _, k := range keys[:min(max, len(keys))] {
		out = append(out, name[k])
	}
	return out
}

// unclassified reports whether a classification may enter file-back.
func unclassified(c string) bool {
	c = strings.TrimSpace(c)
	return c == "" || strings.EqualFold(c, content.Unclassified)
}

func threshold(configured, def float64) float64 {
	if configured <= 0 {
		return def
	}
	return configured
}

func statusOf(m content.Meta, now time.Time) string {
	if m.Status != "" && m.Status != content.StatusActive {
		return m.Status
	}
	if t, ok := m.ExpiresAt(); ok && now.After(t) {
		return "expired " + t.Format(time.DateOnly)
	}
	return "inactive"
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
