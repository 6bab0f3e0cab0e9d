package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/mcp"
	"github.com/ptwiki/pt/mcp/web"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newServeCmd) }

func newServeCmd(e *env) *cobra.Command {
	var addr, authMode, webAddr string
	var rate float64
	var burst int
	var hosts []string
	var syncEvery, indexEvery time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "serve the space to agents over MCP (stdio, or streamable HTTP with --http)",
		Long: "serve runs the space's MCP server. Without --http it speaks JSON-RPC on stdin and stdout,\n" +
			"as a coding agent that starts it expects (see pt mcp install). With --http ADDR (for example\n" +
			mcp.DefaultAddr + ") it listens on ADDR at " + mcp.DefaultPath + ", and every request needs a bearer token\n" +
			"from pt token create unless --auth none, which is allowed on a loopback address only.\n" +
			"With --web ADDR it also serves a read-only web view of the space (alone, only that, until\n" +
			"stopped); off a loopback address the browser asks for a token as the password.",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			stopSync := startSync(e, s, syncEvery)
			defer stopSync()
			eng := retrieve.Open(s, retrieve.Options{})
			defer eng.Close()
			stopIndex := startIndexFollow(e, eng, indexEvery)
			defer stopIndex()
			var ws *webServer
			if cmd.Flags().Changed("web") {
				if ws, err = listenWeb(e, s, eng, webAddr, hosts); err != nil {
					return err
				}
				defer ws.ln.Close() // closed already when it served; not when the MCP setup below fails
			}
			if !cmd.Flags().Changed("http") {
				if ws != nil {
					return ws.serve(e.ctx)
				}
				// A local agent a developer started: its writes are
				// approved by the repository's person, and it reads as
				// the repository's owner.
				approver, _ := wiki.GitUser(s.Dir())
				if approver == "" {
					approver = e.identity().Name
				}
				srv := mcp.NewServer(s, mcp.Options{Version: buildVersion(), Engine: eng, LocalApprover: approver, LocalOwner: true})
				return mcp.ServeStdio(e.ctx, srv, e.stdin, e.stdout)
			}
			srv := mcp.NewServer(s, mcp.Options{Version: buildVersion(), Engine: eng})
			if addr == "" {
				return usageError{errors.New("--http needs an address, e.g. " + mcp.DefaultAddr)}
			}
			if err := mcp.CheckListen(addr, authMode); err != nil {
				return usageError{err}
			}
			// Warnings and errors only: why the token store cannot be read
			// is told here, never to a caller.
			logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			opts := mcp.HTTPOptions{Addr: addr, Auth: authMode, Rate: rate, Burst: burst, AllowedHosts: hosts, Logger: logger}
			if authMode != mcp.AuthNone {
				opts.Tokens = mcp.OpenTokens(s)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			opts.Addr = ln.Addr().String()
			h, err := mcp.Handler(srv, opts)
			if err != nil {
				ln.Close()
				return err
			}
			h = mcp.LogRequests(mcp.WithInfo(h, buildVersion(), authMode), slog.New(slog.NewTextHandler(e.stderr, nil)))
			fmt.Fprintf(e.stderr, "pt: serving %s over MCP at http://%s%s (auth: %s)\n", s.Dir(), opts.Addr, mcp.DefaultPath, authMode)
			if opts.Tokens != nil {
				if toks, err := opts.Tokens.List(); err == nil && len(toks) == 0 {
					fmt.Fprintln(e.stderr, "pt: no tokens yet: create one with pt token create --name NAME --scope read|write")
				}
			}
			return ws.alongside(e.ctx, func(ctx context.Context) error {
				if err := mcp.Serve(ctx, ln, h); err != nil && !errors.Is(err, net.ErrClosed) {
					return err
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on this address instead of stdio (e.g. "+mcp.DefaultAddr+"; port 0 picks a free one)")
	cmd.Flags().StringVar(&authMode, "auth", mcp.AuthToken, "token (a bearer token on every request) or none (loopback only)")
	cmd.Flags().Float64Var(&rate, "rate", mcp.DefaultRate, "requests per second allowed to one token, or with --auth none to one session (negative: no limit)")
	cmd.Flags().IntVar(&burst, "burst", mcp.DefaultBurst, "requests one token (or session) may send at once")
	cmd.Flags().DurationVar(&syncEvery, "sync-every", time.Minute, "when kb.yaml names a remote: pull this often (0: only after each batch); every batch is pushed as it lands")
	cmd.Flags().DurationVar(&indexEvery, "index-every", 500*time.Millisecond, "bring the search index to the space's head this often, so that commits made elsewhere are indexed before the next question (0: only when asked)")
	cmd.Flags().StringVar(&webAddr, "web", "", "serve the read-only web view on this address (e.g. "+web.DefaultAddr+"); alone, without stdio")
	cmd.Flags().StringSliceVar(&hosts, "allowed-host", nil, "another host name clients reach the server by (Host and Origin checks)")
	return cmd
}
