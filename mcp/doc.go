// Package mcp serves a pt space to agents over the Model Context Protocol
// (github.com/modelcontextprotocol/go-sdk): the eight tools of DESIGN.md §9,
// every page as a resource, the consult-the-kb prompt, over stdio and over
// streamable HTTP with bearer tokens, Host and Origin checks, a per-token
// rate limit and bounded request bodies. It also writes the entry that makes
// a coding agent start `pt serve` (Install).
//
// The tools hold no logic of their own: they call the same functions as the
// CLI (retrieve.Engine.Query, ingest.Ingest, ingest.FileBack, lint.Findings,
// wiki.Space.Revert and History), so an answer over MCP is the answer of
// `pt query-kb --json`. What an agent writes is recorded as agent-authored,
// under the name of its token over HTTP, else the name its client gave when
// it initialized.
//
// Imports point one way: mcp may import content, wiki, lint, retrieve and
// ingest, and nothing of cmd. It is the only package that imports the MCP
// SDK; it must not import go-git (only wiki/internal/gitstore does),
// goldmark (only content does) or bluge (only retrieve does).
package mcp
