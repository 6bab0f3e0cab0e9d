package ingest

// PageRank is pageRank, for the external tests.
var PageRank = pageRank

// PageAuthor is pageAuthor, for the authorship table test.
var PageAuthor = pageAuthor
