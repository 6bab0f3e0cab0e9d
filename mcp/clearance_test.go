package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// A page above a token's clearance is never returned nor named: not by
// query_knowledge_base (results or trace), read_page, browse_index or the
// page resources, and a summary is as classified as its source.
func TestClearance(t *testing.T) {
	ctx := context.Background()
	s := newSpace(t)
	_, err := ingest.Ingest(ctx, s, ingest.Source{Title: "Nightjar rollout", Topics: []string{"operations"}, ApprovedBy: "dana",
		Author: wiki.Author{Kind: content.AuthorHuman, Name: "dana"},
		Body:   []byte("---\nclassification: SECRET\n---\n# Nightjar\n\nThe nightjar rollout switches the ferrous relays in the vault at dawn.\n")})
	if err != nil {
		t.Fatal(err)
	}
	url, readTok, _ := httpServer(t, s, HTTPOptions{})
	secretTok, _, err := OpenTokens(s).Issue(TokenSpec{Name: "auditor", For: "erin", Scope: ScopeRead, Clearance: "secret"}, when)
	if err != nil {
		t.Fatal(err)
	}
	low := httpClient(t, url, readTok, "low")
	high := httpClient(t, url, secretTok, "high")
	q := map[string]any{"question": "when does the nightjar rollout switch the ferrous relays"}

	res := call(t, low, ToolQuery, q)
	if js, _ := json.Marshal(res.StructuredContent); res.IsError || strings.Contains(string(js), "nightjar-rollout") || strings.Contains(string(js), "Nightjar") {
		t.Errorf("UNCLASSIFIED token was served or told of the SECRET page:\n%s", js)
	}
	res = call(t, high, ToolQuery, q)
	if js, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(js), "nightjar-rollout.md") {
		t.Errorf("SECRET token not served the SECRET page:\n%s", js)
	}
	for _, p := range []string{"sources/nightjar-rollout.md", "summaries/nightjar-rollout.md"} {
		if r := call(t, low, ToolReadPage, map[string]any{"path": p}); !r.IsError || !strings.Contains(textOf(r), "no such page") {
			t.Errorf("read_page %s with UNCLASSIFIED token: %v %s", p, r.IsError, textOf(r))
		}
		if r := call(t, high, ToolReadPage, map[string]any{"path": p}); r.IsError {
			t.Errorf("read_page %s with SECRET token: %s", p, textOf(r))
		}
		if _, err := low.ReadResource(ctx, &sdk.ReadResourceParams{URI: PageURI(p)}); err == nil {
			t.Errorf("resource %s served to an UNCLASSIFIED token", p)
		}
	}
	spoke := textOf(call(t, low, ToolBrowse, map[string]any{"topic": "operations"}))
	if strings.Contains(spoke, "nightjar") || !strings.Contains(spoke, "ledger-outage-postmortem") {
		t.Errorf("spoke as an UNCLASSIFIED token reads it:\n%s", spoke)
	}
	if spoke := textOf(call(t, high, ToolBrowse, map[string]any{"topic": "operations"})); !strings.Contains(spoke, "nightjar") {
		t.Errorf("spoke as a SECRET token reads it:\n%s", spoke)
	}
}
