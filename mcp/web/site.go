package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/mcp"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// Options configures a Site. The zero value serves a loopback address with
// no tokens.
type Options struct {
	// Addr is the address the site listens on; Host and Origin headers
	// are checked against it as for MCP (mcp.GuardHost).
	Addr string
	// Tokens, when set, makes every request carry one of the space's MCP
	// tokens: as a bearer token, or as the password a browser asks for
	// (HTTP Basic authentication, any user name). Required when Addr is
	// not a loopback address. A request reads the pages its token's
	// clearance allows; without tokens, UNCLASSIFIED pages only.
	Tokens *mcp.Tokens
	// Anonymous lets a request without a token through on a loopback
	// address, reading UNCLASSIFIED pages only, while one with a token
	// (sent by a browser after /login) reads at the token's clearance.
	Anonymous bool
	// AllowedHosts are further host names accepted in Host and Origin.
	AllowedHosts []string
	// Logger receives failures that a response only summarises; nil
	// discards them.
	Logger *slog.Logger
	// Engine answers the search box; the caller opens it on the same space
	// and closes it after the site stops. nil opens one per search.
	Engine *retrieve.Engine
}

// Site is the web view of one space. It is safe for concurrent use: what
// it derives from a commit (findings by page, counts) is kept for the
// head it was read at and read again when the head moves.
type Site struct {
	space  *wiki.Space
	opts   Options
	views  map[string]*template.Template
	static fs.FS

	mu    sync.Mutex
	state *headState
}

// New returns the site of s. It refuses to serve a non-loopback address
// without tokens.
func New(s *wiki.Space, opts Options) (*Site, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if (opts.Tokens == nil || opts.Anonymous) && !mcp.IsLoopback(opts.Addr) {
		return nil, fmt.Errorf("web view on %s: a non-loopback address needs tokens (pt token create)", opts.Addr)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	views, err := parseViews()
	if err != nil {
		return nil, err
	}
	st, err := fs.Sub(assets, "static")
	if err != nil {
		return nil, err
	}
	return &Site{space: s, opts: opts, views: views, static: st}, nil
}

// DefaultAddr is where pt serve --web listens when asked to pick.
const DefaultAddr = "127.0.0.1:7324"

// Handler returns the site behind its checks, outermost first: Host and
// Origin (403), method (405), token (401).
func (site *Site) Handler() (http.Handler, error) {
	var h http.Handler = http.HandlerFunc(site.route)
	if site.opts.Tokens != nil {
		h = withToken(site.opts.Tokens, site.opts.Anonymous, h)
	}
	h = readOnly(h)
	return mcp.GuardHost(site.opts.Addr, site.opts.AllowedHosts, h)
}

// securityHeaders forbid script of any origin, frames, and leaking the
// space's paths to the sites a page links to.
func securityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
}

// readOnly answers 405 to anything but GET and HEAD: the site writes nothing.
func readOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: the web view is read-only", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// route dispatches on the path: the fixed views first, then any page of
// the space by its path.
func (site *Site) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/":
		site.serveHub(w, r)
	case p == "/search":
		site.serveSearch(w, r)
	case p == "/log":
		site.serveLog(w, r)
	case strings.HasPrefix(p, "/batch/"):
		site.serveBatch(w, r, strings.TrimPrefix(p, "/batch/"))
	case p == "/findings":
		site.serveFindings(w, r)
	case p == "/agents":
		site.serveAgents(w, r)
	case p == loginPath:
		http.Redirect(w, r, "/", http.StatusSeeOther) // withToken asked for the token
	case p == "/favicon.ico":
		w.WriteHeader(http.StatusNoContent) // none: a browser asks anyway
	case strings.HasPrefix(p, "/static/"):
		http.StripPrefix("/static/", http.FileServerFS(site.static)).ServeHTTP(w, r)
	default:
		site.servePath(w, r, strings.TrimPrefix(p, "/"))
	}
}

// page is what every view's template gets: the layout's fields and the
// view's own data.
type page struct {
	Title string
	Space string
	Nav   string // which top-level view is current
	Query string // the search box's text
	Data  any

	Reader    string // the token the request carried; "" for none
	Clearance string // the token's clearance
	CanSignIn bool   // a token would raise what the request may read
}

// render executes a view into a buffer first, so that a template error is
// a clean 500 and not half a page.
func (site *Site) render(w http.ResponseWriter, r *http.Request, view string, pg page) {
	t, ok := site.views[view]
	if !ok {
		site.fail(w, r, fmt.Errorf("no view %q", view))
		return
	}
	pg.Space = site.space.Config().Name
	pg.Reader, pg.Clearance = who(r)
	pg.CanSignIn = site.opts.Tokens != nil
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "layout", pg); err != nil {
		site.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(b.String()))
}

// fail answers an error: 404 for what does not exist, 400 for a bad
// request, else 500 with the details in the log only.
func (site *Site) fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := http.StatusInternalServerError, "internal error (see the server's log)"
	var bad badRequest
	switch {
	case errors.Is(err, wiki.ErrNotFound):
		code, msg = http.StatusNotFound, err.Error()
	case errors.As(err, &bad):
		code, msg = http.StatusBadRequest, bad.Error()
	case errors.Is(err, context.Canceled):
		return
	default:
		site.opts.Logger.Error("web view", "path", r.URL.Path, "err", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	t := site.views["error"]
	pg := page{Title: http.StatusText(code), Space: site.space.Config().Name, Data: msg, CanSignIn: site.opts.Tokens != nil}
	pg.Reader, pg.Clearance = who(r)
	_ = t.ExecuteTemplate(w, "layout", pg)
}

// badRequest is an error in what the request asked for.
type badRequest struct{ error }

func badf(format string, args ...any) error { return badRequest{fmt.Errorf(format, args...)} }

// cleanPath turns a URL path into a page path of the space, or a bad
// request.
func cleanPath(p string) (string, error) {
	c, err := content.CleanPath(p)
	if err != nil {
		return "", badf("%v", err)
	}
	return c, nil
}

// cleanOther checks a path that is not a page (a folder, an image) with
// the rules of content.CleanPath, by checking a page inside it.
func cleanOther(p string) (string, error) {
	const probe = "/_.md"
	c, err := cleanPath(p + probe)
	return strings.TrimSuffix(c, probe), err
}

// now is the space's clock: the time that decides what has expired and
// what "the last N days" are.
func (site *Site) now() time.Time { return site.space.Now() }

// notFound is a 404 naming what was not found.
func notFound(what string) error { return fmt.Errorf("%s: %w", what, wiki.ErrNotFound) }
