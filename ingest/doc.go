// Package ingest adds knowledge to a space: a source ingested by a person or
// an agent (Ingest), an existing corpus migrated in one batch (Import), and
// the pieces every write path shares: the secret gate (checkSecrets) and
// the file-back gates. Ideas that are not ingest live in internal packages:
// the extractive summarizer (internal/summary), the similarity sketches
// (internal/sketch) and near-duplicate measures (internal/neardup) of the
// gates, the durability rules (internal/durability), topic matching
// against the space's taxonomy (internal/taxonomy) and the model client
// (internal/model).
//
// Every write goes through wiki.Apply, so an ingest or an import is exactly
// one commit that also carries the spokes, the hub and the log entry, and
// pt revert undoes it as one unit. Input is validated (size, binary,
// UTF-8, frontmatter, secrets) before Apply is called, so a refused source
// leaves the repository exactly as it was.
//
// Topics come from the caller, else from the space's taxonomy (kb.yaml topic
// hints and the existing spokes), else from the corpus itself (its folders,
// the link graph of its index pages, its vocabulary); see
// internal/taxonomy and derive.go.
//
// Imports point one way: ingest may import content, wiki, lint and retrieve,
// and nothing of mcp or cmd. It must not import go-git (only
// wiki/internal/gitstore does), goldmark (only content does), bluge (only
// retrieve does) or the MCP SDK (only mcp does).
package ingest
