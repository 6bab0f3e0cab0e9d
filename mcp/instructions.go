package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/content/guidance"
)

// Instructions is what the server tells every agent when it connects: the
// tools by what they do to the space, the resources, the ground-cite-file
// back workflow and the safety rules. Its habits are the words of
// AGENTS.md and the consult-the-kb skill (content/guidance).
const Instructions = `This server is a pt knowledge base: a team's decisions, conventions, lessons and summaries of sources, kept as Markdown pages in git. Every change is one commit.

## Habits

` + guidance.Habits + `
## Tools

Read (never change anything):
- ` + ToolQuery + `: ranked excerpts for a question, each with the page path and the revision to cite. Pass paths (the files you are about to change) to get the pages that apply to them first, with or without a question. sufficient=false means the space does not cover the question's subject; nearest then names up to three pages worth a read_page. Every answer carries coverage (how much of the question the excerpts hold, 0 to 1) and missing_terms (the question's key words no excerpt contains). If an answer misses, ask again with also set to other phrasings or the names the pages would use.
- ` + ToolReadPage + `: one page in full, at the head or at a commit.
- ` + ToolBrowse + `: the hub (every topic) or one topic's spoke (its pages, one line each).
- ` + ToolLint + `: open lint findings (broken links, orphans, provenance drift, expired pages).
- ` + ToolLog + `: the latest commits with their batch id, kind and approver.

Write (add knowledge; each call is one commit, or one proposal when the space sends agents' writes to review):
- ` + ToolFileBack + `: file a consult's answer back as a synthesis page; it passes gates (classification, durability, citations, no echo or near-duplicate) and the verdict says filed or why not.
- ` + ToolPropose + `: propose a note (title, body, citations) for a person to review; it passes the same gates and lands only when they approve it.
- ` + ToolIngest + `: add a source verbatim with its summary, or revise one already there (update).

Destructive (undo or retire knowledge):
- ` + ToolRevert + `: undo a whole batch as a new commit.
- ` + ToolSupersede + `: retire a page in favour of its successor; questions that match it are answered from the successor.
- ` + ToolRetract + `: retire a page that was wrong, with the reason.
- ` + ToolObsolete + `: retire a page that no longer applies and that nothing replaces.
- ` + ToolArchive + `: archive a page, kept for the record only (the last step of its life).
Each first returns a preview (what it would delete or retire, and whose pages those are) with a confirm_token; it acts only on a second call carrying that token, before it expires.

## Resources

- ` + HubURI + `: the hub, every topic one line each.
- ` + PageURITemplate + `: any page by its path, e.g. kb://page/pages/storage.md.
- The prompt ` + PromptConsult + ` starts a task grounded in the space.

## Workflow

1. Ground: before you implement, design or answer, call ` + ToolQuery + ` with the task in plain words and the files you will touch as paths. Read whole pages with ` + ToolReadPage + ` when an excerpt is not enough.
2. Check: a sufficient answer is on the subject, not proof of the fact. Check that an excerpt states what you need before relying on it, and say when none does (missing_terms and a low coverage are the usual signs); a page marked needs_review has open findings.
3. Cite: name each page you relied on as path@revision, e.g. pages/storage.md@3f2a1c9.
4. File back: when you worked out something that stays true, call ` + ToolFileBack + ` (or ` + ToolPropose + ` when a person should review it first) with the pages you cited.

## Safety

- Writes are approved by the person your token belongs to, never by a name you send: approved_by is ignored. An agent's token writes as the agent, with no approver.
- Destructive tools act only when a person asked for that change. When a tool answers with a preview and a confirmation token, show the preview to the person and call again with the token only after they agree.
- Never file secrets, credentials or personal data: writes that carry a secret are refused. Never file plans, priorities or status: they are live state and are refused.`

// capabilities are what the server implements. Its tools, resources and
// prompts are registered once and never change while it runs, so it sends
// no list-changed notifications and must not advertise them; it sends no
// log messages either.
func capabilities() *sdk.ServerCapabilities {
	return &sdk.ServerCapabilities{
		Tools:     &sdk.ToolCapabilities{},
		Resources: &sdk.ResourceCapabilities{},
		Prompts:   &sdk.PromptCapabilities{},
	}
}
