package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/ptwiki/pt/mcp"
	"github.com/ptwiki/pt/mcp/web"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// webServer is the web view, listening.
type webServer struct {
	ln net.Listener
	h  http.Handler
}

// listenWeb opens the web view's listener on addr: without tokens on a
// loopback address, else behind the space's MCP tokens.
func listenWeb(e *env, s *wiki.Space, eng *retrieve.Engine, addr string, hosts []string) (*webServer, error) {
	if addr == "" {
		return nil, usageError{errors.New("--web needs an address, e.g. " + web.DefaultAddr)}
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, usageError{fmt.Errorf("--web %q: %w", addr, err)}
	}
	// On loopback a browser needs no token and reads UNCLASSIFIED pages;
	// one signed in with a token reads at its clearance.
	opts := web.Options{AllowedHosts: hosts, Engine: eng, Tokens: mcp.OpenTokens(s), Anonymous: mcp.IsLoopback(addr)}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts.Addr = ln.Addr().String()
	site, err := web.New(s, opts)
	if err == nil {
		var h http.Handler
		if h, err = site.Handler(); err == nil {
			auth := "token (the password a browser asks for)"
			if opts.Anonymous {
				auth = "none on loopback (UNCLASSIFIED pages; /login with a token for more)"
			}
			fmt.Fprintf(e.stderr, "pt: serving the web view of %s at http://%s/ (auth: %s)\n", s.Dir(), opts.Addr, auth)
			return &webServer{ln: ln, h: h}, nil
		}
	}
	ln.Close()
	return nil, err
}

// serve runs the web view until ctx ends.
func (ws *webServer) serve(ctx context.Context) error {
	if err := mcp.Serve(ctx, ws.ln, ws.h); err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("web view: %w", err)
	}
	return nil
}

// alongside runs the web view (when there is one) beside serve, and stops
// each when the other ends.
func (ws *webServer) alongside(ctx context.Context, serve func(ctx context.Context) error) error {
	if ws == nil {
		return serve(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- ws.serve(ctx)
		cancel()
	}()
	err := serve(ctx)
	cancel()
	return errors.Join(err, <-errc)
}
