// Package index is pt's derived full-text index over a knowledge base: whole
// pages, their sections and the topic spokes, scored with BM25 over English
// analysed fields (title, heading, summary, topics, body) with per-field
// boosts. Each unit type keeps its text in fields of its own, so that a search
// of one type walks only that type's postings, while BM25's statistics span
// every type (see partitions).
//
// It is the only package in pt that imports bluge (github.com/blugelabs/bluge),
// so that the search engine can be tuned, upgraded or replaced behind one small
// API, and so that bluge's rules (one writer process per directory, reader
// snapshots, batch atomicity) are handled in one place.
//
// The index is a cache, never the source of truth. Pages live in git; the index
// only records which commit it reflects (Index.Commit), written in the same
// atomic batch as the documents, so that content and key never disagree. The
// retrieve package brings it up to date from the tree diff between that commit
// and HEAD, and when the directory is corrupt, busy beyond reason or of an older
// format, deleting it and rebuilding from git loses nothing.
//
// The package knows nothing of git or of pt's page format: callers hand it flat
// Docs. It must not import any other pt package.
package index
