// Package wiki is a pt space in a git repository: open and init, pages read
// at any revision, batches written as exactly one commit, revert, the log
// page and the hub-and-spoke index pages.
//
// It is the only package that touches git objects and refs, and it does so
// through wiki/internal/gitstore, the only importer of go-git. Everything
// above it (lint, retrieve, ingest, mcp, cmd) speaks in space-relative page
// paths and blob revisions. It imports content and nothing else of pt.
package wiki
