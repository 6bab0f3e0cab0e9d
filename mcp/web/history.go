package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// logRow is one commit of the batch log: its batch trailers, who wrote and
// who approved it, and the pages it touched.
type logRow struct {
	Commit   string
	Batch    string // "" for a plain git commit
	Kind     string
	Subject  string
	Author   string
	Agent    string
	Approver string
	Reverts  string
	When     time.Time
	Pages    []string // the pages it wrote or deleted, pt's derived files left out
	Derived  int      // derived files it rewrote (hub, spokes, log, findings)
	Withheld bool     // it touched a page above the reader's clearance
}

// withheldSubject stands for the subject of a commit that touched a page
// above the reader's clearance.
const withheldSubject = "(a change to pages above your clearance)"

// ID is how the row is linked: its batch id, else its commit.
func (l logRow) ID() string {
	if l.Batch != "" {
		return l.Batch
	}
	return l.Commit
}

// Default and maximum lengths of the log view.
const (
	defaultLog = 50
	maxLog     = 500
)

func (site *Site) serveLog(w http.ResponseWriter, r *http.Request) {
	n, err := intParam(r, "n", defaultLog, 1, maxLog)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	rows, err := site.logRows(r.Context(), n)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	site.render(w, r, "log", page{Title: "Batch log", Nav: "log", Data: struct {
		Rows []logRow
		N    int
		More int
	}{rows, n, min(n*2, maxLog)}})
}

// logRows reads the last n commits with the pages each touched.
func (site *Site) logRows(ctx context.Context, n int) ([]logRow, error) {
	cs, err := site.space.History(ctx, "", n)
	if err != nil {
		return nil, err
	}
	out := make([]logRow, 0, len(cs))
	for _, c := range cs {
		row, err := site.logRow(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

func (site *Site) logRow(ctx context.Context, c wiki.Commit) (logRow, error) {
	row := logRow{Commit: c.Hash, Subject: c.Subject, Author: c.Author, When: c.When}
	if b := c.Batch; b != nil {
		row.Batch, row.Kind, row.Agent, row.Approver, row.Reverts = b.BatchID, b.Kind, b.AgentName, b.ApprovedBy, b.Reverts
	}
	ch, err := site.space.Diff(ctx, wiki.Rev(c.Parent), wiki.Rev(c.Hash))
	if err != nil {
		return row, err
	}
	for _, f := range ch {
		switch {
		case derivedPath(f.Path):
			row.Derived++
		case site.sees(ctx, f.Path, wiki.Rev(c.Parent), wiki.Rev(c.Hash)):
			row.Pages = append(row.Pages, f.Path)
		default:
			row.Withheld = true
		}
	}
	if row.Withheld { // its subject may name what the reader may not read
		row.Subject = withheldSubject
	}
	return row, nil
}

// batchView is one batch with the diff of every file it changed.
type batchView struct {
	Row   logRow
	Body  string // the commit message's body, trailers included
	Files []fileDiff
}

// serveBatch shows one batch (by batch id or commit) and its diff.
func (site *Site) serveBatch(w http.ResponseWriter, r *http.Request, id string) {
	ctx := r.Context()
	c, row, err := site.commitRow(ctx, id)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	ch, err := site.space.Diff(ctx, wiki.Rev(c.Parent), wiki.Rev(c.Hash))
	if err != nil {
		site.fail(w, r, err)
		return
	}
	v := batchView{Row: row, Body: c.Message}
	if row.Withheld {
		v.Body = withheldSubject
	}
	// The batch's own pages first, then what pt derived from them.
	for _, own := range []bool{true, false} {
		for _, f := range ch {
			if derivedPath(f.Path) == own || !site.sees(ctx, f.Path, wiki.Rev(c.Parent), wiki.Rev(c.Hash)) {
				continue
			}
			fd, err := site.diffBlobs(ctx, f.Path, f.From, f.To)
			if err != nil {
				site.fail(w, r, err)
				return
			}
			v.Files = append(v.Files, site.redactDiff(ctx, fd, wiki.Rev(c.Parent), wiki.Rev(c.Hash), withheldBatch(row)))
		}
	}
	title := row.ID()
	site.render(w, r, "batch", page{Title: "Batch " + title, Nav: "log", Data: v})
}

// commitRow is the commit a batch id or revision names, with its log row.
func (site *Site) commitRow(ctx context.Context, id string) (wiki.Commit, logRow, error) {
	c, err := site.commitOf(ctx, id)
	if err != nil {
		return c, logRow{}, err
	}
	row, err := site.logRow(ctx, c)
	return c, row, err
}

// commitOf finds the commit a batch id or commit hash names.
func (site *Site) commitOf(ctx context.Context, id string) (wiki.Commit, error) {
	if id == "" {
		return wiki.Commit{}, badf("no batch named: /batch/<id>")
	}
	rev, err := site.space.Resolve(ctx, id)
	if err != nil {
		return wiki.Commit{}, notFound("batch " + id)
	}
	cs, err := site.space.History(ctx, rev, 1)
	if err != nil {
		return wiki.Commit{}, err
	}
	if len(cs) == 0 {
		return wiki.Commit{}, notFound("batch " + id)
	}
	return cs[0], nil
}

// historyView is a page's revisions, newest first.
type historyView struct {
	Path      string
	Revisions []wiki.Revision
	Max       int
}

// maxHistory bounds a page's history view.
const maxHistory = 200

func (site *Site) serveHistory(w http.ResponseWriter, r *http.Request, p string) {
	hs, err := site.space.PageHistory(r.Context(), p, maxHistory)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	if len(hs) == 0 {
		site.fail(w, r, notFound(p))
		return
	}
	if last := hs[0]; !site.sees(r.Context(), p, wiki.Rev(last.Hash), wiki.Rev(last.Parent)) {
		site.fail(w, r, hidden(p, wiki.Rev(last.Hash)))
		return
	}
	site.render(w, r, "history", page{Title: "History of " + p, Data: historyView{Path: p, Revisions: hs, Max: maxHistory}})
}

// servePageDiff shows what one commit changed in one page.
func (site *Site) servePageDiff(w http.ResponseWriter, r *http.Request, p, at string) {
	ctx := r.Context()
	c, row, err := site.commitRow(ctx, at)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	var from, to string
	if c.Parent != "" {
		if _, from, err = site.space.ReadFile(ctx, wiki.Rev(c.Parent), p); err != nil {
			from = ""
		}
	}
	if _, to, err = site.space.ReadFile(ctx, wiki.Rev(c.Hash), p); err != nil {
		to = ""
	}
	if from == "" && to == "" || !site.sees(ctx, p, wiki.Rev(c.Parent), wiki.Rev(c.Hash)) {
		site.fail(w, r, notFound(p+" at "+short(c.Hash)))
		return
	}
	fd, err := site.diffBlobs(ctx, p, from, to)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	fd = site.redactDiff(ctx, fd, wiki.Rev(c.Parent), wiki.Rev(c.Hash), withheldBatch(row))
	body := c.Message
	if row.Withheld {
		body = withheldSubject
	}
	site.render(w, r, "batch", page{Title: p + " in " + row.ID(), Nav: "log", Data: batchView{Row: row, Body: body, Files: []fileDiff{fd}}})
}

// sourceView is a page's file verbatim, line by line, so that a finding
// can link to its line.
type sourceView struct {
	Path     string
	Commit   string
	Revision string
	Lines    []string
	Findings map[int][]string // line → the checks that flag it
}

func (site *Site) serveSource(w http.ResponseWriter, r *http.Request, p, at string) {
	ctx := r.Context()
	st, err := site.stateAt(ctx)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	rev, err := site.resolve(ctx, st.head, at)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	data, blob, err := site.space.ReadFile(ctx, rev, p)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	if !site.sees(ctx, p, rev) {
		site.fail(w, r, hidden(p, rev))
		return
	}
	text := site.redact(ctx, rev, p, string(data))
	v := sourceView{Path: p, Commit: string(rev), Revision: blob, Lines: splitLines(text), Findings: map[int][]string{}}
	if rev == st.head {
		for _, f := range st.byPath[p] {
			v.Findings[f.Line] = append(v.Findings[f.Line], f.Check+": "+f.Message)
		}
	}
	site.render(w, r, "source", page{Title: p, Data: v})
}

// intParam reads an integer query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, badf("%s must be a number from %d to %d, not %q", name, lo, hi, s)
	}
	return n, nil
}
