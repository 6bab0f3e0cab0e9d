package mcp

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PromptConsult is the prompt that starts a task grounded in the space.
const PromptConsult = "consult-the-kb"

func addPrompt(srv *sdk.Server) {
	srv.AddPrompt(&sdk.Prompt{
		Name:        PromptConsult,
		Title:       "Consult the knowledge base",
		Description: "Start a task grounded in the knowledge base: query it first, cite what you used, file durable answers back.",
		Arguments: []*sdk.PromptArgument{{
			Name:        "task",
			Title:       "Task or question",
			Description: "what you are about to do or answer",
			Required:    true,
		}},
	}, func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		task := strings.TrimSpace(req.Params.Arguments["task"])
		if task == "" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "consult-the-kb: the task argument is required"}
		}
		return &sdk.GetPromptResult{
			Description: "Consult the knowledge base before: " + firstLine(task),
			Messages: []*sdk.PromptMessage{{
				Role: "user",
				Content: &sdk.TextContent{Text: "Before you start, ground yourself in the team's knowledge base.\n\n" +
					"1. Call query_knowledge_base with the task below (and again with narrower questions as they come up). Read whole pages with read_page when an excerpt is not enough.\n" +
					"2. Follow what the knowledge base says (decisions, conventions, lessons). Where it is silent (sufficient=false), say so; do not invent its content.\n" +
					"3. In your answer, cite every page you relied on as path@revision, with the revision the tool returned.\n" +
					"4. If you worked out an answer that will stay true, file it back with file_back_consult (question, answer, the paths you cited).\n\n" +
					"Task: " + task},
			}},
		}, nil
	})
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}
