package mcp

import (
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/wiki"
)

// Options configures a server. The zero value is ready to use.
type Options struct {
	// Version is reported as the server's version in the initialize
	// handshake; "" reports "dev".
	Version string
	// Logger receives the SDK's diagnostics; nil discards them.
	Logger *slog.Logger
}

// NewServer returns the MCP server of a space: the eight tools, the page
// resources and the consult-the-kb prompt, registered once, to be served over
// any transport (ServeStdio, Handler, or the SDK's in-memory transports in
// tests). s must stay open while the server runs.
func NewServer(s *wiki.Space, opts Options) *sdk.Server {
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "pt", Title: "pt knowledge base", Version: version}, &sdk.ServerOptions{
		Instructions: Instructions,
		Logger:       opts.Logger,
		Capabilities: capabilities(),
	})
	t := &tools{space: s}
	t.register(srv)
	addResources(srv, s)
	addPrompt(srv)
	return srv
}
