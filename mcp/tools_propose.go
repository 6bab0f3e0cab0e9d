package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/ingest"
)

// ProposeInput is the input of propose_note.
type ProposeInput struct {
	Title     string   `json:"title" jsonschema:"the note's title: the question it answers or the lesson in one line"`
	Body      string   `json:"body" jsonschema:"the note, in Markdown: what stays true (a decision, a convention, a lesson), grounded in the cited pages"`
	Citations []string `json:"citations" jsonschema:"paths of the pages the note relies on, e.g. pages/storage.md; a note without citations is not proposed"`
}

func (t *tools) addPropose(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name: ToolPropose,
		Description: "Propose a note for the knowledge base without writing to it: the note passes the same gates as a file-back (secrets, classification, durability, citations, duplicates) and " +
			"then waits on a branch of its own (refs/heads/pt/proposals/<id>) until a person approves it (pt approve) or rejects it. The verdict says proposed, with the id, or which gate stopped it.",
		Annotations: writes("Propose a note", false, false),
	}, t.propose)
}

func (t *tools) propose(ctx context.Context, req *sdk.CallToolRequest, in ProposeInput) (*sdk.CallToolResult, *ingest.Verdict, error) {
	if err := mayWrite(req, ToolPropose); err != nil {
		return nil, nil, err
	}
	switch {
	case strings.TrimSpace(in.Title) == "":
		return nil, nil, errors.New("propose_note: title is required")
	case strings.TrimSpace(in.Body) == "":
		return nil, nil, errors.New("propose_note: body is required: propose the note you wrote")
	}
	who := agentOf(req)
	v, err := ingest.FileBack(ctx, t.space, ingest.Consult{
		Question:  in.Title,
		Answer:    in.Body,
		Citations: in.Citations,
		AskedBy:   who.Name,
		Author:    who,
		Propose:   true,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("propose_note: %w", err)
	}
	return text(renderVerdict(v)), v, nil
}
