package ingest

// PageRank is pageRank, for the external tests.
var PageRank = pageRank
