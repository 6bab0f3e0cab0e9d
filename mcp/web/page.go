package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// pageView is one page as the view shows it.
type pageView struct {
	Path     string
	Title    string
	Summary  string
	Commit   string // the commit it was read at
	Old      bool   // read at a commit other than head
	Revision string // its blob id
	HTML     template.HTML
	Prov     provenance
	Badges   []badge
	Findings []lint.Finding // open findings about it, at head
	Hub      *hubPanel      // the hub's dashboard, on / only
}

// servePath serves whatever a path of the space names: a page (or its
// history, an old revision, a diff, its source), a folder, or an image.
func (site *Site) servePath(w http.ResponseWriter, r *http.Request, rel string) {
	if rel == "" || strings.HasSuffix(rel, "/") {
		site.serveFolder(w, r, strings.TrimSuffix(rel, "/"))
		return
	}
	if !strings.EqualFold(path.Ext(rel), ".md") {
		p, err := cleanOther(rel)
		if err != nil {
			site.fail(w, r, err)
			return
		}
		site.serveFile(w, r, p)
		return
	}
	p, err := cleanPath(rel)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	switch {
	case q.Has("history"):
		site.serveHistory(w, r, p)
	case q.Has("diff"):
		site.servePageDiff(w, r, p, q.Get("diff"))
	case q.Has("source"):
		site.serveSource(w, r, p, q.Get("at"))
	default:
		site.servePage(w, r, p, q.Get("at"))
	}
}

// servePage renders a page at head, or at commit at.
func (site *Site) servePage(w http.ResponseWriter, r *http.Request, p, at string) {
	v, err := site.pageAt(r.Context(), p, at)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	site.render(w, r, "page", page{Title: v.Title, Data: v})
}

// pageAt reads and renders one page with its provenance and badges.
func (site *Site) pageAt(ctx context.Context, p, at string) (*pageView, error) {
	st, err := site.stateAt(ctx)
	if err != nil {
		return nil, err
	}
	rev, err := site.resolve(ctx, st.head, at)
	if err != nil {
		return nil, err
	}
	pa, err := site.space.ReadPage(ctx, rev, p)
	if errors.Is(err, wiki.ErrNotFound) {
		return nil, hidden(p, rev)
	}
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", p, short(string(rev)), err)
	}
	if !readerIn(ctx).Sees(ctx, site.space, rev, pa) {
		return nil, hidden(p, rev)
	}
	raw := []byte(site.redact(ctx, rev, p, string(pa.Raw)))
	m := pa.Page.Meta
	v := &pageView{
		Path: p, Title: m.Title, Summary: m.Summary, Commit: string(rev), Old: rev != st.head, Revision: pa.Revision,
		HTML:     template.HTML(content.RenderHTML(raw, content.HTMLOptions{Link: linkMapper(p)})), // sanitised by RenderHTML
		Findings: st.byPath[p],
	}
	if v.Title == "" {
		v.Title = content.TitleFromPath(p)
	}
	v.Prov = site.provenanceOf(ctx, st.head, pa)
	v.Badges = badgesOf(v.Prov, v.Findings)
	return v, nil
}

// resolve turns an ?at= value (a commit, or a batch id) into a commit;
// "" is head.
func (site *Site) resolve(ctx context.Context, head wiki.Rev, at string) (wiki.Rev, error) {
	if at == "" {
		if head == "" {
			return "", fmt.Errorf("the space has no commits: %w", wiki.ErrNotFound)
		}
		return head, nil
	}
	rev, err := site.space.Resolve(ctx, at)
	if err != nil {
		return "", badf("%v", err)
	}
	return rev, nil
}

// serveFile serves an image a page shows; any other file of the space is
// not part of the view.
func (site *Site) serveFile(w http.ResponseWriter, r *http.Request, p string) {
	types := map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp"}
	ct, ok := types[strings.ToLower(path.Ext(p))]
	if !ok {
		site.fail(w, r, fmt.Errorf("%s: not a page or an image: %w", p, wiki.ErrNotFound))
		return
	}
	head, err := site.space.Head(r.Context())
	if err != nil {
		site.fail(w, r, err)
		return
	}
	data, _, err := site.space.ReadFile(r.Context(), head, p)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(data)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
