package ingest

import (
	"context"

	"github.com/ptwiki/pt/retrieve"
)

// Retriever is what ingest needs from retrieval: the file-back gates ask
// the consult's question (its results are the echo and near-duplicate
// candidates, and the excerpts an answer is composed from), and the
// compounding figure asks questions before and after a file-back.
// *retrieve.Engine is one.
type Retriever interface {
	Query(ctx context.Context, req retrieve.Request) (*retrieve.Result, error)
}
