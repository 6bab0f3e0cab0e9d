// Package retrieve answers questions from a space, index first (DESIGN.md §6):
// it reads the hub, picks the topics whose spokes match the question, reads
// their member pages' sections, and fuses that navigation with a full-text
// channel over every section; then it packs the best sections into a bounded
// context, each excerpt cited with its page path and blob revision, and says
// honestly when the space does not hold the answer.
//
// An Engine, opened on a space and closed when done, owns the derived
// full-text index (through retrieve/internal/index, the only importer of
// bluge), kept under the space's state directory and brought up to date from
// git on every query, its caches, and the evaluation harness (Engine.Eval)
// that measures retrieval against questions with known answers and against
// two baselines. The ranking's parameters (Ranking) are a value the Engine
// is opened with. The package keeps no state of its own.
//
// It imports content, wiki and lint, and nothing above them (ingest, mcp,
// cmd): ingest and the MCP server call Engine.Query.
package retrieve
