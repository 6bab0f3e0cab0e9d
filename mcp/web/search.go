package web

import (
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve"
)

// searchView is query_knowledge_base's answer as the view shows it.
type searchView struct {
	Question string
	Result   *retrieve.Result
	Hits     []searchHit
}

// searchHit is one excerpt, rendered.
type searchHit struct {
	retrieve.Hit
	HTML template.HTML
}

// maxQuestion bounds the question box, as MCP bounds a consult's question.
const maxQuestion = 1 << 10

func (site *Site) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	v := searchView{Question: q}
	if len(q) > maxQuestion {
		site.fail(w, r, badf("question too long: %d bytes, at most %d", len(q), maxQuestion))
		return
	}
	if q != "" {
		eng := site.opts.Engine
		if eng == nil {
			eng = retrieve.Open(site.space, retrieve.Options{})
			defer eng.Close()
		}
		res, err := eng.Query(r.Context(), retrieve.Request{Question: q, Now: site.now(), Clearance: readerIn(r.Context()).ReadClearance()})
		if errors.Is(err, retrieve.ErrEmptyQuestion) {
			err = badf("%v", err)
		}
		if err != nil {
			site.fail(w, r, err)
			return
		}
		v.Result = res
		for _, h := range res.Results {
			html := content.RenderHTML([]byte(h.Excerpt), content.HTMLOptions{Link: linkMapper(h.Path)})
			v.Hits = append(v.Hits, searchHit{Hit: h, HTML: template.HTML(html)}) // sanitised by RenderHTML
		}
	}
	title := "Search"
	if q != "" {
		title = q + " — search"
	}
	site.render(w, r, "search", page{Title: title, Nav: "search", Query: q, Data: v})
}
