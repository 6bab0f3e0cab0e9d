package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/retrieve"
)

// An agent connected through the SDK's client reads what it needs to judge
// an answer: the tool's schemas and description name the graded signal and
// the alternatives; a question about something the space never mentions
// comes back insufficient with the nearest pages; a sufficient answer
// carries its coverage and the words no excerpt holds; alternatives are
// searched and shown in the trace.
func TestAgentReadsSignalAndNearest(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tools.Tools, func(tl *sdk.Tool) bool { return tl.Name == ToolQuery })
	if i < 0 {
		t.Fatal("no query_knowledge_base tool")
	}
	tool := tools.Tools[i]
	out, _ := json.Marshal(tool.OutputSchema)
	in, _ := json.Marshal(tool.InputSchema)
	for _, k := range []string{`"coverage"`, `"missing_terms"`, `"nearest"`, `"summary"`} {
		if !strings.Contains(string(out), k) {
			t.Errorf("output schema lacks %s", k)
		}
	}
	if !strings.Contains(string(in), `"also"`) {
		t.Error("input schema lacks also")
	}
	if !strings.Contains(tool.Description, "states the fact") || !strings.Contains(Instructions, "Check that an excerpt states what you need") {
		t.Error("the description and the instructions do not tell the agent to check that the excerpts state the fact")
	}

	res := call(t, cs, ToolQuery, map[string]any{"question": "How do we shard the ledger write queue with Cassandra?"})
	if res.IsError {
		t.Fatalf("isError: %s", textOf(res))
	}
	var got retrieve.Result
	remarshal(t, res.StructuredContent, &got)
	if got.Sufficient || len(got.Results) != 0 {
		t.Fatalf("Cassandra: want insufficient, got %+v", got)
	}
	if len(got.Nearest) == 0 || got.Nearest[0].Path != "sources/ledger-outage-postmortem.md" || got.Nearest[0].Summary == "" {
		t.Errorf("nearest %+v, want the ledger postmortem first, with a summary", got.Nearest)
	}
	if !slices.Contains(got.MissingTerms, "Cassandra") || !strings.Contains(textOf(res), "sources/ledger-outage-postmortem.md") {
		t.Errorf("missing terms %v, text:\n%s", got.MissingTerms, textOf(res))
	}

	res = call(t, cs, ToolQuery, map[string]any{"question": "How many reviewers must approve a pull request?", "also": []string{"code review reviewer"}})
	got = retrieve.Result{}
	remarshal(t, res.StructuredContent, &got)
	if !got.Sufficient || got.Results[0].Path != "sources/code-review-conventions.md" {
		t.Fatalf("reviewers: want the review conventions first, got %+v", got)
	}
	if !slices.Equal(got.Trace.Also, []string{"code review reviewer"}) {
		t.Errorf("trace.also = %v", got.Trace.Also)
	}
	if got.Coverage <= 0 || got.Coverage >= 1 || !slices.Contains(got.MissingTerms, "approve") {
		t.Errorf("coverage %.3f, missing %v: want part of the question held and approve missing", got.Coverage, got.MissingTerms)
	}
	if !strings.Contains(textOf(res), "No excerpt mentions: ") {
		t.Errorf("text does not name the missing words:\n%s", textOf(res))
	}
}
