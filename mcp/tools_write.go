package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// IngestInput is the input of ingest_source.
type IngestInput struct {
	Title      string   `json:"title" jsonschema:"the source's title, one line"`
	Body       string   `json:"body" jsonschema:"the source verbatim, in Markdown (meeting notes, a postmortem, a decision, a thread)"`
	ApprovedBy string   `json:"approved_by" jsonschema:"the person who approved adding this source (required; never invent one)"`
	Kind       string   `json:"kind,omitempty" jsonschema:"what the source is (default other)"`
	Summary    string   `json:"summary,omitempty" jsonschema:"a one-line summary; by default one is extracted"`
	Topics     []string `json:"topics,omitempty" jsonschema:"topics of the source; by default assigned from the space's taxonomy"`
	Related    []string `json:"related,omitempty" jsonschema:"paths of existing pages that should link back to this source's summary"`
}

// RevertInput is the input of revert_ingest_batch.
type RevertInput struct {
	Batch      string `json:"batch" jsonschema:"the batch id to undo, e.g. b-20261129-7f3a (from ingest_source or kb_log)"`
	ApprovedBy string `json:"approved_by" jsonschema:"the person who approved the revert (required; never invent one)"`
}

func (t *tools) addWrite(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolIngest,
		Description: "Add a source to the knowledge base as one commit: the source verbatim, its summary, links back from related pages, the topic spokes and the log. Needs approved_by; content carrying a secret is refused and nothing is written.",
		Annotations: writes("Ingest a source", false, false),
		InputSchema: inputSchema[IngestInput](map[string][]string{"kind": ingest.SourceKinds}),
	}, t.ingest)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolRevert,
		Description: "Undo a batch (an ingest, import or file-back) as one new commit that restores every page it wrote. Refuses, writing nothing, when a later commit changed one of those pages.",
		Annotations: writes("Revert a batch", true, false),
	}, t.revert)
	t.addFileBack(srv)
	t.addPropose(srv)
}

func (t *tools) ingest(ctx context.Context, req *sdk.CallToolRequest, in IngestInput) (*sdk.CallToolResult, *wiki.Result, error) {
	if err := mayWrite(req, ToolIngest); err != nil {
		return nil, nil, err
	}
	res, err := ingest.Ingest(ctx, t.space, ingest.Source{
		Title:      in.Title,
		Body:       []byte(in.Body),
		Kind:       in.Kind,
		Summary:    in.Summary,
		Topics:     in.Topics,
		Related:    in.Related,
		ApprovedBy: strings.TrimSpace(in.ApprovedBy),
		Author:     agentOf(req),
		Propose:    t.space.Config().ProposeAgentWrites(),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("ingest_source: %w", err)
	}
	return text(renderResult(res)), res, nil
}

func (t *tools) revert(ctx context.Context, req *sdk.CallToolRequest, in RevertInput) (*sdk.CallToolResult, *wiki.Result, error) {
	if err := mayWrite(req, ToolRevert); err != nil {
		return nil, nil, err
	}
	id := strings.TrimSpace(in.Batch)
	approver := strings.TrimSpace(in.ApprovedBy)
	switch {
	case id == "":
		return nil, nil, errors.New("revert_ingest_batch: batch is required")
	case approver == "":
		return nil, nil, errors.New("revert_ingest_batch: approved_by is required: name the person who approved the revert")
	}
	if err := ingest.CheckLine("revert_ingest_batch", "approved_by", approver); err != nil {
		return nil, nil, err
	}
	res, err := t.space.Revert(ctx, id, wiki.RevertOptions{ApprovedBy: approver, Author: agentOf(req)})
	if err != nil {
		return nil, nil, fmt.Errorf("revert_ingest_batch: %w", err)
	}
	return text(renderResult(res)), res, nil
}
