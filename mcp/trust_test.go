package mcp

import (
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// structured is a tool result's structured content as a map.
func structured(t testing.TB, r *sdk.CallToolResult) map[string]any {
	t.Helper()
	m, ok := r.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("no structured content: %s", textOf(r))
	}
	return m
}

// wantRefused checks a refused call: isError, one line saying want, and
// the repository as it was.
func wantRefused(t testing.TB, s *wiki.Space, r *sdk.CallToolResult, want, head string) {
	t.Helper()
	msg := strings.TrimSpace(textOf(r))
	if !r.IsError || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("want one error line saying %q, got isError=%v %q", want, r.IsError, msg)
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Errorf("refused call moved HEAD %s -> %s", head, got)
	}
}

// Over HTTP, the approver of a write is the token's person, never a name
// the client sends; an agent's token writes as the agent, with no
// Approved-By. Destructive calls act only on a confirmed preview, and an
// agent's token never deletes a person's page.
func TestTrustOverHTTP(t *testing.T) {
	s := newSpace(t)
	url, readTok, agentTok := httpServer(t, s, HTTPOptions{})
	personTok, _, err := OpenTokens(s).Issue(TokenSpec{For: "dana", Name: "dana-laptop", Scope: ScopeWrite}, when)
	if err != nil {
		t.Fatal(err)
	}
	bot := httpClient(t, url, agentTok, "bot")
	dana := httpClient(t, url, personTok, "dana-client")
	reader := httpClient(t, url, readTok, "reader")

	// Writes: the agent cannot name dana; dana's token can only be dana.
	res := call(t, bot, ToolIngest, map[string]any{"title": "Bot notes", "body": "The bot wrote these notes about spokes.", "approved_by": "dana"})
	if res.IsError {
		t.Fatal(textOf(res))
	}
	botBatch := structured(t, res)["batch"].(string)
	if msg := git(t, s, "log", "-1", "--format=%B"); strings.Contains(msg, "Approved-By") || !strings.Contains(msg, "Agent: writer-bot") {
		t.Errorf("agent token's ingest:\n%s", msg)
	}
	if pg := git(t, s, "show", "HEAD:sources/bot-notes.md"); strings.Contains(pg, "approved_by") {
		t.Errorf("agent token's page names an approver:\n%s", pg)
	}
	res = call(t, dana, ToolIngest, map[string]any{"title": "Dana notes", "body": "Dana's client wrote these notes about hubs.", "approved_by": "mallory"})
	if res.IsError {
		t.Fatal(textOf(res))
	}
	if msg := git(t, s, "log", "-1", "--format=%B"); !strings.Contains(msg, "Approved-By: dana\n") || !strings.Contains(msg, "Agent: dana-laptop") {
		t.Errorf("person token's ingest:\n%s", msg)
	}

	// An agent's revert of a person's ingest stops at the preview and names
	// the person's page.
	seed := git(t, s, "log", "--format=%(trailers:key=Batch-Id,valueonly)", "--grep", "Ledger outage", "-1")
	head := git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, bot, ToolRevert, map[string]any{"batch": strings.TrimSpace(seed)}), "sources/ledger-outage-postmortem.md (dana)", head)

	// Its own ingest it may revert, once confirmed by the same token,
	// before the token expires, once.
	pre := call(t, bot, ToolRevert, map[string]any{"batch": botBatch})
	tok := confirmToken(t, pre)
	p := structured(t, pre)["preview"].(map[string]any)
	if !strings.Contains(textOf(pre), "delete sources/bot-notes.md") || len(p["pages"].([]any)) != 2 {
		t.Errorf("preview: %s\n%#v", textOf(pre), p)
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Fatal("a preview wrote")
	}
	wantRefused(t, s, call(t, dana, ToolRevert, map[string]any{"batch": botBatch, "confirm_token": tok}), "issued to another caller", head)
	wantRefused(t, s, call(t, bot, ToolRevert, map[string]any{"batch": "b-20990101-000000", "confirm_token": tok}), "another call", head)
	wantRefused(t, s, call(t, reader, ToolRevert, map[string]any{"batch": botBatch, "confirm_token": tok}), "read scope", head)
	if res := call(t, bot, ToolRevert, map[string]any{"batch": botBatch, "confirm_token": tok}); res.IsError {
		t.Fatalf("confirmed revert: %s", textOf(res))
	}
	if msg := git(t, s, "log", "-1", "--format=%B"); !strings.Contains(msg, "Reverts: "+botBatch) || strings.Contains(msg, "Approved-By") {
		t.Errorf("agent's revert:\n%s", msg)
	}
	head = git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, bot, ToolRevert, map[string]any{"batch": botBatch, "confirm_token": tok}), "used already", head)
	wantRefused(t, s, call(t, bot, ToolRevert, map[string]any{"batch": botBatch, "confirm_token": "ct_forged"}), "unknown confirm_token", head)

	// Supersede with dana's token: the preview names whose pages change,
	// only lifecycle fields change, and dana approves.
	body := git(t, s, "show", "HEAD:sources/code-review-conventions.md")
	args := map[string]any{"page": "sources/code-review-conventions.md", "by": "sources/dana-notes.md", "approved_by": "mallory"}
	pre = call(t, dana, ToolSupersede, args)
	if txt := textOf(pre); !strings.Contains(txt, "retire sources/code-review-conventions.md → superseded (dana, a person's page)") {
		t.Errorf("supersede preview:\n%s", txt)
	}
	args["confirm_token"] = confirmToken(t, pre)
	if res := call(t, dana, ToolSupersede, args); res.IsError {
		t.Fatal(textOf(res))
	}
	if msg := git(t, s, "log", "-1", "--format=%B"); !strings.Contains(msg, "Batch-Kind: supersede") || !strings.Contains(msg, "Approved-By: dana\n") {
		t.Errorf("supersede commit:\n%s", msg)
	}
	after := git(t, s, "show", "HEAD:sources/code-review-conventions.md")
	if bodyOf(after) != bodyOf(body) || !strings.Contains(after, "status: superseded") {
		t.Errorf("supersede touched the body or missed the status:\n%s", after)
	}

	// Retract with the agent's token; a retracted page is not retracted twice.
	args = map[string]any{"page": "sources/bot-notes.md", "reason": "wrong"}
	head = git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, bot, ToolRetract, args), "no such page", head)
	args["page"] = "sources/dana-notes.md"
	if res := confirmCall(t, bot, ToolRetract, args); res.IsError {
		t.Fatal(textOf(res))
	}
	head = git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, bot, ToolRetract, args), "already retracted", head)
	git(t, s, "fsck", "--strict")
}

func bodyOf(page string) string {
	pg, err := content.Parse("x.md", []byte(page))
	if err != nil {
		return "unparsable: " + err.Error()
	}
	return string(pg.Body)
}

// A preview's token expires; the call is then refused and writes nothing.
func TestConfirmExpires(t *testing.T) {
	s := newSpace(t)
	cs := connectWith(t, s, "agent", Options{ConfirmTTL: time.Nanosecond}) // the space's clock steps a second per reading
	args := map[string]any{"page": "sources/code-review-conventions.md", "reason": "outdated"}
	tok := confirmToken(t, call(t, cs, ToolRetract, args))
	args["confirm_token"] = tok
	wantRefused(t, s, call(t, cs, ToolRetract, args), "expired", git(t, s, "rev-parse", "HEAD"))
}
