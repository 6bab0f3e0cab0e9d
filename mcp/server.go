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
}

// Instructions is what the server tells every agent when it connects: ground
// itself in the space before it implements, cite what it used, and file
// durable answers back so the next agent finds them.
const Instructions = `This server is a pt knowledge base: a team's decisions, conventions, lessons and summaries of sources, kept as Markdown pages in git.

Before you implement, design or answer anything about this project, ground yourself: call query_knowledge_base with the question or task in plain words. Read the excerpts; use read_page for a whole page, browse_index to walk the topics.

Cite what you used: name the page path and the revision (the blob id returned with each result), for example pages/storage.md@3f2a1c9, so that a reader can check it and notice when the page changes. When query_knowledge_base says sufficient=false, the space does not hold the answer: say so instead of inventing one.

When you have composed an answer that will stay true (a decision, a convention, how something works), file it back with file_back_consult, giving the question, your answer and the paths you cited; it is filed only when it passes the gates and the verdict says why. Do not file back plans, priorities or status.

Writes are approved by the person your token belongs to, never by a name you send. revert_ingest_batch, supersede_page and retract_page first return a preview of what they would delete or retire, and whose pages those are, with a confirm_token: show it to the person, and call again with the same arguments and confirm_token only if they agree.`

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
	})
	t := &tools{space: s, engine: opts.Engine, opts: opts, confirm: newConfirmations(opts.ConfirmTTL)}
	t.register(srv)
	t.addResources(srv)
	addPrompt(srv)
	return srv
}
