package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Authentication modes of the HTTP transport.
const (
	AuthToken = "token" // a bearer token from pt token create on every request
	AuthNone  = "none"  // no token; only on a loopback address
)

// Defaults of HTTPOptions.
const (
	DefaultAddr    = "127.0.0.1:7323"
	DefaultPath    = "/mcp"
	DefaultRate    = 50  // requests per second, per token (per session without tokens)
	DefaultBurst   = 100 // requests at once, per token (per session without tokens)
	DefaultMaxBody = 4 << 20
)

// HTTPOptions configures the streamable HTTP transport. Zero values are the
// defaults above, with token authentication.
type HTTPOptions struct {
	// Addr is the address the server listens on; Host headers must name it
	// (or a loopback name when it is a loopback address).
	Addr string
	// Auth is AuthToken (the default) or AuthNone.
	Auth string
	// Tokens verifies bearer tokens; required with AuthToken.
	Tokens *Tokens
	// Rate is the sustained number of requests per second allowed to one
	// token (with AuthNone, to one MCP session, so that a developer's
	// agents do not share one limit); Burst is how many may come at once.
	// A negative Rate disables the limit. Failed authentications are
	// limited per client address whatever Rate is.
	Rate  float64
	Burst int
	// MaxBodyBytes bounds a request body; a larger one gets 413.
	MaxBodyBytes int64
	// AllowedHosts are further host names accepted in Host and Origin
	// headers (a name the server is reached by through a proxy).
	AllowedHosts []string
	// SessionTimeout closes a session idle for that long; 0 means 30 minutes.
	SessionTimeout time.Duration
	// Logger receives the transport's diagnostics; nil discards them.
	Logger *slog.Logger
}

// CheckListen refuses a configuration that would expose the space: --auth
// none anywhere but on a loopback address.
func CheckListen(addr, authMode string) error {
	switch authMode {
	case "", AuthToken:
		return nil
	case AuthNone:
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return fmt.Errorf("listen address %q: %w", addr, err)
		}
		if !isLoopbackHost(host) {
			return fmt.Errorf("--auth none is only allowed on a loopback address (127.0.0.1, ::1, localhost), not %q: anyone who can reach it could read and write the space", addr)
		}
		return nil
	default:
		return fmt.Errorf("unknown --auth %q (token or none)", authMode)
	}
}

// Handler returns the HTTP handler that serves srv at DefaultPath as
// streamable HTTP, behind the checks, outermost first: Host and Origin
// (against DNS rebinding and cross-site requests, 403), body size (413),
// failed authentications per client address (429), bearer token (401),
// rate limit (429), one JSON-RPC 2.0 message (400).
func Handler(srv *sdk.Server, opts HTTPOptions) (http.Handler, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if err := CheckListen(opts.Addr, opts.Auth); err != nil {
		return nil, err
	}
	if opts.Auth == "" {
		opts.Auth = AuthToken
	}
	if opts.Auth == AuthToken && opts.Tokens == nil {
		return nil, errors.New("token authentication needs a token store")
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBody
	}
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = 30 * time.Minute
	}
	hosts, err := newHostCheck(opts.Addr, opts.AllowedHosts)
	if err != nil {
		return nil, err
	}
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Logger:              opts.Logger,
		SessionTimeout:      opts.SessionTimeout,
		MaxRequestBodyBytes: opts.MaxBodyBytes,
	})
	h = strictJSONRPC(h)
	if opts.Rate >= 0 {
		h = newLimiter(opts.Rate, opts.Burst).wrap(h)
	}
	if opts.Auth == AuthToken {
		h = withChallenge(auth.RequireBearerToken(verifier(opts.Tokens, opts.Logger), &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h))
		h = newAuthFailures().wrap(h)
	}
	h = limitBody(h, opts.MaxBodyBytes)
	h = hosts.wrap(h)
	mux := http.NewServeMux()
	mux.Handle(DefaultPath, h)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not found: the MCP endpoint is "+DefaultPath, http.StatusNotFound)
	})
	return mux, nil
}

// verifier checks a bearer token against the store. A write token carries
// both scopes. The token's name is the session's user, so a session cannot
// be taken over with another token, and the author of what it writes. Why
// the store cannot be read (it names a server path) goes to the log, not
// to a caller who has not authenticated.
func verifier(ts *Tokens, logger *slog.Logger) auth.TokenVerifier {
	return func(_ context.Context, secret string, _ *http.Request) (*auth.TokenInfo, error) {
		t, err := ts.Verify(secret)
		if errors.Is(err, ErrInvalidToken) {
			return nil, fmt.Errorf("%w: unknown or revoked bearer token (see pt token list)", auth.ErrInvalidToken)
		}
		if err != nil {
			if logger != nil {
				logger.Error("token store unreadable", "err", err)
			}
			return nil, errors.New("the server cannot read its token store; its log says why")
		}
		scopes := []string{ScopeRead}
		if t.Scope == ScopeWrite {
			scopes = append(scopes, ScopeWrite)
		}
		return &auth.TokenInfo{Scopes: scopes, UserID: t.Name, Extra: map[string]any{extraFor: t.For, extraClearance: t.Clearance}}, nil
	}
}

// limitBody answers 413 to a body over max: at once when the client
// declares its length, else when reading passes max.
func limitBody(next http.Handler, max int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			http.Error(w, fmt.Sprintf("request body too large: %d bytes, limit %d", r.ContentLength, max), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// hostCheck guards against DNS rebinding and cross-site requests: the Host
// header must name this server, and an Origin header, when a browser sends
// one, must be a loopback origin or this server's own.
type hostCheck struct {
	loopback bool     // bound to a loopback address: loopback names only
	any      bool     // bound to all interfaces with no allowed names: any Host
	names    []string // lower-case host names accepted besides loopback ones
}

func newHostCheck(addr string, allowed []string) (*hostCheck, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	hc := &hostCheck{loopback: isLoopbackHost(host)}
	for _, a := range allowed {
		hc.names = append(hc.names, strings.ToLower(strings.Trim(a, "[]")))
	}
	ip := net.ParseIP(host)
	switch {
	case hc.loopback:
	case host == "" || ip != nil && ip.IsUnspecified():
		hc.any = len(hc.names) == 0
	default:
		hc.names = append(hc.names, strings.ToLower(strings.Trim(host, "[]")))
	}
	return hc, nil
}

func (hc *hostCheck) allowed(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	return isLoopbackHost(host) || slices.Contains(hc.names, host) || hc.any
}

func (hc *hostCheck) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := hostOnly(r.Host)
		if !hc.allowed(host) {
			http.Error(w, fmt.Sprintf("forbidden: Host %q is not this server (DNS rebinding protection)", r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			oh := ""
			if err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				oh = strings.ToLower(u.Hostname())
			}
			if oh == "" || !(isLoopbackHost(oh) || oh == strings.ToLower(strings.Trim(host, "[]")) && !hc.any || slices.Contains(hc.names, oh)) {
				http.Error(w, fmt.Sprintf("forbidden: Origin %q may not call this server", origin), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// isLoopbackHost reports whether host (no port) is a loopback name or
// address: localhost, 127.0.0.0/8 or ::1.
func isLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves h on ln until ctx is done, then shuts down, giving requests
// in flight a few seconds to finish.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// retryAfter is the Retry-After header value for a wait.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int((d+time.Second-1)/time.Second)))
}

// withChallenge adds the WWW-Authenticate header that RFC 6750 requires on
// a 401 and the SDK sets only when it has OAuth metadata to point to, so
// that a client knows to send a bearer token.
func withChallenge(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(challengeWriter{w}, r)
	})
}

// challengeWriter passes everything through, Flush included (responses
// stream as server-sent events), and adds the challenge to a 401.
type challengeWriter struct{ http.ResponseWriter }

func (w challengeWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="pt"`)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w challengeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w challengeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
