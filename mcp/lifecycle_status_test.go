package mcp

import (
	"strings"
	"testing"
)

// obsolete_page and archive_page follow the rules of the other destructive
// tools over a real HTTP transport: a preview first, a token good for one
// call by one caller, the token's person as approver (an agent's token
// records the agent alone), only the status changed, and a step backwards
// or repeated refused with nothing written.
func TestObsoleteAndArchiveOverHTTP(t *testing.T) {
	s := newSpace(t)
	url, readTok, agentTok := httpServer(t, s, HTTPOptions{})
	personTok, _, err := OpenTokens(s).Issue(TokenSpec{For: "dana", Name: "dana-laptop", Scope: ScopeWrite}, when)
	if err != nil {
		t.Fatal(err)
	}
	bot := httpClient(t, url, agentTok, "bot")
	dana := httpClient(t, url, personTok, "dana-client")
	reader := httpClient(t, url, readTok, "reader")
	const page = "sources/code-review-conventions.md"
	body := bodyOf(git(t, s, "show", "HEAD:"+page))
	head := git(t, s, "rev-parse", "HEAD")

	args := map[string]any{"page": page, "reason": "the team moved to pair review", "approved_by": "dana"}
	pre := call(t, bot, ToolObsolete, args)
	if txt := textOf(pre); !strings.Contains(txt, "retire "+page+" → obsolete (dana, a person's page)") ||
		!strings.Contains(txt, "retire summaries/code-review-conventions.md → obsolete") {
		t.Errorf("obsolete preview:\n%s", txt)
	}
	if got := git(t, s, "rev-parse", "HEAD"); got != head {
		t.Fatal("a preview wrote")
	}
	tok := confirmToken(t, pre)
	wantRefused(t, s, call(t, reader, ToolObsolete, map[string]any{"page": page, "confirm_token": tok}), "read scope", head)
	wantRefused(t, s, call(t, dana, ToolObsolete, map[string]any{"page": page, "reason": args["reason"], "approved_by": "dana", "confirm_token": tok}), "issued to another caller", head)
	args["confirm_token"] = tok
	if res := call(t, bot, ToolObsolete, args); res.IsError {
		t.Fatal(textOf(res))
	}
	msg := git(t, s, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Batch-Kind: obsolete") || !strings.Contains(msg, "Reason: the team moved to pair review") ||
		!strings.Contains(msg, "Agent: writer-bot") || strings.Contains(msg, "Approved-By") {
		t.Errorf("agent's obsolete commit:\n%s", msg)
	}
	after := git(t, s, "show", "HEAD:"+page)
	if bodyOf(after) != body || !strings.Contains(after, "\nstatus: obsolete\n") {
		t.Errorf("obsolete touched the body or missed the status:\n%s", after)
	}
	if sum := git(t, s, "show", "HEAD:summaries/code-review-conventions.md"); !strings.Contains(sum, "\nstatus: obsolete\n") {
		t.Errorf("the summary did not follow its source:\n%s", sum)
	}
	head = git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, bot, ToolObsolete, args), "used already", head)
	delete(args, "confirm_token")
	wantRefused(t, s, call(t, bot, ToolObsolete, args), "already obsolete", head)

	// dana archives it; the name the client sends is ignored.
	arch := map[string]any{"page": page, "approved_by": "mallory"}
	if res := confirmCall(t, dana, ToolArchive, arch); res.IsError {
		t.Fatal(textOf(res))
	}
	if msg := git(t, s, "log", "-1", "--format=%B"); !strings.Contains(msg, "Batch-Kind: archive") || !strings.Contains(msg, "Approved-By: dana\n") || strings.Contains(msg, "mallory") {
		t.Errorf("person's archive commit:\n%s", msg)
	}
	head = git(t, s, "rev-parse", "HEAD")
	wantRefused(t, s, call(t, dana, ToolArchive, arch), "already archived", head)
	wantRefused(t, s, call(t, dana, ToolObsolete, map[string]any{"page": page}), "it is archived", head)
	wantRefused(t, s, call(t, dana, ToolArchive, map[string]any{"page": "pages/nope.md"}), "no such page", head)

	res := call(t, bot, ToolQuery, map[string]any{"question": "code review conventions"})
	if res.IsError || strings.Contains(textOf(res), "code-review-conventions.md") {
		t.Errorf("an archived page was returned:\n%s", textOf(res))
	}
	git(t, s, "fsck", "--strict")
}
