package web

import (
	"embed"
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// assets are the templates and the style sheet, built into the binary.
//
//go:embed templates/*.html static/*
var assets embed.FS

// parseViews parses the layout with each view into a template set of its
// own, so that every view can define "content".
func parseViews() (map[string]*template.Template, error) {
	base, err := template.New("layout").Funcs(viewFuncs()).ParseFS(assets, "templates/layout.html", "templates/partials.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"page", "folder", "search", "log", "batch", "history", "source", "findings", "agents", "error"} {
		t, err := template.Must(base.Clone()).ParseFS(assets, "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("view %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// viewFuncs are the helpers templates call. Each returns text (escaped by
// html/template where it lands) or a URL built from escaped parts.
func viewFuncs() template.FuncMap {
	return template.FuncMap{
		"pageURL":  pageURL,
		"topicURL": func(t string) string { return pageURL(wiki.SpokePath(t)) },
		"batchURL": func(id string) string { return "/batch/" + url.PathEscape(id) },
		"historyURL": func(p string) string {
			return pageURL(p) + "?history"
		},
		"atURL": func(p, commit string) string { return pageURL(p) + "?at=" + url.QueryEscape(commit) },
		"diffURL": func(p, commit string) string {
			return pageURL(p) + "?diff=" + url.QueryEscape(commit)
		},
		"sourceURL": func(p string, line int) string {
			u := pageURL(p) + "?source"
			if line > 0 {
				u += fmt.Sprintf("#L%d", line)
			}
			return u
		},
		"short": short,
		"when": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format("2006-01-02 15:04 UTC")
		},
		"day": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format(time.DateOnly)
		},
		"plural": plural,
		"pct":    func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
		"join":   strings.Join,
		"add":    func(a, b int) int { return a + b },
		"first": func(n int, ss []string) []string {
			if len(ss) > n {
				return ss[:n]
			}
			return ss
		},
		"lineID": func(n int) string { return fmt.Sprintf("L%d", n) },
	}
}
