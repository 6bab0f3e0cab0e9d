package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/ingest"
)

// FileBackInput is the input of file_back_consult.
type FileBackInput struct {
	Question   string   `json:"question" jsonschema:"the question that was asked, in plain words"`
	Answer     string   `json:"answer" jsonschema:"your answer, in Markdown: a paragraph or a few, grounded in the cited pages"`
	Citations  []string `json:"citations" jsonschema:"paths of the pages the answer used, e.g. pages/storage.md; an answer without citations is not filed"`
	Durability string   `json:"durability,omitempty" jsonschema:"how long the answer stays true; pt also decides by rule and the shorter wins (planning, priorities and status are ephemeral and never filed)"`
}

func (t *tools) addFileBack(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:        ToolFileBack,
		Description: "File a consult's answer back as a synthesis page, so the next agent finds it. It is filed only when every gate passes (classification, durability, citations, no echo or near-duplicate); the verdict says filed or which gate skipped it and why.",
		Annotations: writes("File back a consult", false, false),
		InputSchema: inputSchema[FileBackInput](map[string][]string{"durability": {"durable", "time_bound", "ephemeral"}}),
	}, t.fileBack)
}

func (t *tools) fileBack(ctx context.Context, req *sdk.CallToolRequest, in FileBackInput) (*sdk.CallToolResult, *ingest.Verdict, error) {
	if err := mayWrite(req, ToolFileBack); err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(in.Answer) == "" {
		return nil, nil, errors.New("file_back_consult: answer is required: file back the answer you composed")
	}
	who := agentOf(req)
	e, done := t.retriever()
	defer done()
	v, err := ingest.FileBack(ctx, t.space, ingest.Consult{
		Retriever:  e,
		Question:   in.Question,
		Answer:     in.Answer,
		Citations:  in.Citations,
		Durability: in.Durability,
		AskedBy:    who.Name,
		Author:     who,
		Propose:    t.callerOf(req).proposes(t.space),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("file_back_consult: %w", err)
	}
	return text(renderVerdict(v)), v, nil
}

func renderVerdict(v *ingest.Verdict) string {
	switch v.Verdict {
	case ingest.VerdictFiled:
		return fmt.Sprintf("filed as %s (batch %s, commit %s, %s): %s\n", v.Page, v.Batch, short(v.Commit), v.Durability, v.Reason)
	case ingest.VerdictProposed:
		return fmt.Sprintf("proposed as %s on %s (%s): a person reviews it and lands it with pt approve %s\n", v.Page, v.Proposal, v.Durability, v.Batch)
	}
	return fmt.Sprintf("%s at the %s gate: %s\n", v.Verdict, v.Gate, v.Reason)
}
