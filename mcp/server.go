package mcp

import (
	"log/slog"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// Options configures a server. The zero value is ready to use.
type Options struct {
	// Version is reported as the server's version in the initialize
	// handshake; "" reports "dev".
	Version string
	// Logger receives the SDK's diagnostics; nil discards them.
	Logger *slog.Logger
	// Engine answers queries and the file-back gates' retrieval; the
	// caller opens it on the same space and closes it after the server
	// stops. nil means each call opens an Engine of its own, as a
	// one-shot command would.
	Engine *retrieve.Engine
	// LocalApprover approves the writes of calls that carry no bearer
	// token: the person whose repository it is, for a server a developer
	// started over stdio. "" records those writes as the agent's alone.
	LocalApprover string
	// LocalOwner lets calls without a bearer token read every page,
	// whatever its classification, as the repository's owner does; false
	// reads as UNCLASSIFIED.
	LocalOwner bool
	// ConfirmTTL is how long a destructive call's preview may be
	// confirmed; 0 means DefaultConfirmTTL.
	ConfirmTTL time.Duration
	// MaxQueries is how many query_knowledge_base calls are answered at
	// once; more wait their turn. 0 means GOMAXPROCS.
	MaxQueries int
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
	t := &tools{space: s, engine: opts.Engine, opts: opts, confirm: newConfirmations(opts.ConfirmTTL), queries: newQuerySlots(opts.MaxQueries)}
	t.register(srv)
	t.addResources(srv)
	addPrompt(srv)
	return srv
}
