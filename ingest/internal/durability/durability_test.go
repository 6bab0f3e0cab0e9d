package durability

import (
	"strings"
	"testing"
	"time"
)

func TestClassifyDurability(t *testing.T) {
	tests := []struct {
		question, answer string
		want             Kind
	}{
		// ephemeral: planning, priorities, status, live state.
		{"What should Ravi work on next?", "The tree-diff updater, then the crash test.", Ephemeral},
		{"what should I pick up after the index work", "Take the lint SARIF output.", Ephemeral},
		{"How should we prioritise the lint backlog?", "Broken crossrefs first.", Ephemeral},
		{"What are our top priority items for storage?", "Incremental index updates.", Ephemeral},
		{"Who is on call this week?", "Mei, with Tomás as secondary.", Ephemeral},
		{"who's on-call", "Dana.", Ephemeral},
		{"What's blocked right now on initiative X?", "The migration waits on the DBA review.", Ephemeral},
		{"Is anything blocked on the release?", "Only the changelog.", Ephemeral},
		{"What did we get done today?", "Merged the reaper.", Ephemeral},
		{"What is in this sprint?", "Ingest and lint.", Ephemeral},
		{"What is the status of PT-142?", "In review.", Ephemeral},
		{"Has PT-88 been merged?", "Yes, yesterday.", Ephemeral},
		{"Who is working on the MCP server?", "Tomás.", Ephemeral},
		{"Give me a summary for standup", "Yesterday: reaper. Today: lint.", Ephemeral},
		{"What's the ETA for the importer?", "Friday.", Ephemeral},
		{"Where are we at with the migration?", "Two of five services moved.", Ephemeral},
		{"where are we on the ledger migration", "Two of five services moved.", Ephemeral},
		{"What is the progress on the importer?", "Half the formats parse.", Ephemeral},
		{"Is the ledger migration done yet?", "No, the last service moves on Monday.", Ephemeral},
		{"What's the current state of the search rewrite?", "Behind a flag in staging.", Ephemeral},
		{"How does the reaper work?", "As a status update: this sprint we changed it to run hourly.", Ephemeral},
		{"Is the linux-arm64 builder still marked as broken?", "Yes, its known issue is open.", Ephemeral},
		{"Which blockers are still open for rc1?", "Two compiler bugs.", Ephemeral},
		{"Who is covering the release rota until Friday?", "Mei.", Ephemeral},
		{"Has security signed off on the new token format yet?", "Not yet.", Ephemeral},
		{"Which flaky tests should we fix before Wednesday?", "The two in the serial job.", Ephemeral},
		{"Which PRs are pending review?", "Three docs PRs.", Ephemeral},
		{"Can I merge the migration?", "Not yet: the DBA review is open.", Ephemeral},
		{"Is the deploy pipeline healthy?", "It's still failing on the lint step since this morning.", Ephemeral},

		// Time-bound: facts with an evident shelf life.
		{"Which version of Postgres do we run?", "Postgres 16.4 on all clusters.", TimeBound},
		{"What is the latest release of pt?", "v0.4.2.", TimeBound},
		{"How do I install the CLI?", "Currently the CLI ships only as a Go binary; use go install.", TimeBound},
		{"What is the deadline for the SOC 2 evidence?", "The end of the month.", TimeBound},
		{"What are the goals for this quarter?", "Ship file-back and the importer.", TimeBound},
		{"When is the next meetup?", "There is an upcoming meetup on 12 March in Berlin.", TimeBound},
		{"How do we work around the go-git lock bug?", "Use the temporary workaround of a process-wide mutex until the upstream fix is released.", TimeBound},
		{"Which regions have capacity?", "As of November, eu-west-1 and us-east-2 have headroom.", TimeBound},
		{"When will bluge be released with the fix?", "No date yet.", TimeBound},
		{"Is Go 1.22 still supported?", "Go 1.22 is end-of-life since the 1.24 release.", TimeBound},
		{"What happens during the freeze?", "The code freeze for the holiday runs from 20 December.", TimeBound},
		{"What is the release calendar at the moment?", "A minor release every six months, in February and August.", TimeBound},
		{"Which linters do people use today?", "Mostly staticcheck and golangci-lint.", TimeBound},
		{"What prefix do experiment flags use until the 1.28 cycle starts?", "go127.", TimeBound},
		{"What's the minimum Git version the tooling needs?", "Git 2.24.", TimeBound},
		{"Does the SDK support retries yet?", "Not in a release.", TimeBound},
		{"Who leads the storage team?", "Mei, until 2099-01-01.", TimeBound},

		// durable: decisions, conventions, how things work, lessons.
		{"Why is the index keyed by commit?", "Because it is derived data: keying it by commit makes incremental updates and rebuilds safe.", Durable},
		{"How does the reaper work?", "It expires time_bound pages past their expiry in one batch and drops them from the spokes.", Durable},
		{"What did we decide about the frontmatter library?", "We decided to use go.abhg.dev/goldmark/frontmatter to keep the YAML node.", Durable},
		{"What is our convention for error messages?", "Lowercase, wrapped with %w, naming the operation and the path.", Durable},
		{"What did we learn from the lost batch incident?", "Never move a branch without a compare-and-swap.", Durable},
		{"How do I add a lint check?", "Implement the Check interface and give findings stable ids.", Durable},
		{"What does pt do when the index is missing?", "It rebuilds it from the pages at HEAD.", Durable},
		{"How do we handle blockers in the release process?", "Each blocker gets an owner and a label; the release manager reviews the label daily.", Durable},
		{"What should we do when the index is corrupt?", "Delete .git/pt/index; pt rebuilds it.", Durable},
		{"What is the status field in frontmatter for?", "The status of a page is active, stale, retracted or expired.", Durable},
		{"How does Patroni fail over?", "The leader holds a lock in etcd until the TTL expires; a replica is then promoted.", Durable},
		{"Where do temporary files go?", "Under the OS temp directory; pt removes them on exit.", Durable},
		{"What changed about loop variables in Go 1.22?", "Each iteration gets its own variable, from go 1.22 in go.mod.", Durable},
		{"Do I still need to copy the loop variable in parallel tests?", "Not once go.mod says 1.22 or later.", Durable},
		{"Why is the release branch cut at rc.0?", "So that master can reopen for the next cycle.", Durable},
		{"How does a range loop over a slice work?", "The value is a copy; it is thrown away on the next iteration.", Durable},
		{"When was the write queue introduced?", "On 2019-03-04, after the first ledger outage.", Durable},
		{"How can we make progress on our highest-priority story when it's blocked?", "Split off the part that is not blocked.", Durable},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got, reason := ClassifyAt(tt.question, tt.answer, time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC))
			if got != tt.want {
				t.Errorf("Classify(%q, %q) = %s (%s), want %s", tt.question, tt.answer, got, reason, tt.want)
			}
			if !strings.HasPrefix(reason, string(got)+":") || strings.Contains(reason, "\n") {
				t.Errorf("reason %q should be one line starting with %q", reason, got+":")
			}
		})
	}
}

func TestParseDurability(t *testing.T) {
	tests := []struct {
		in      string
		want    Kind
		wantErr bool
	}{
		{"durable", Durable, false},
		{" Ephemeral ", Ephemeral, false},
		{"time_bound", TimeBound, false},
		{"time-bound", TimeBound, false},
		{"", "", false},
		{"forever", "", true},
		{"timebound", "", true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "durable, time_bound or ephemeral") {
			t.Errorf("error %q does not list the valid words", err)
		}
	}
}

func TestCombineDurability(t *testing.T) {
	tests := []struct{ caller, rule, want Kind }{
		{Durable, Durable, Durable},
		{Durable, TimeBound, TimeBound},
		{Durable, Ephemeral, Ephemeral},
		{TimeBound, Durable, TimeBound},
		{TimeBound, Ephemeral, Ephemeral},
		{Ephemeral, Durable, Ephemeral},
		{Ephemeral, TimeBound, Ephemeral},
		{"", Durable, Durable},
		{"", TimeBound, TimeBound},
		{"bogus", Durable, Durable},
		{Ephemeral, "", Ephemeral},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Combine(tt.caller, tt.rule); got != tt.want {
			t.Errorf("Combine(%q, %q) = %q, want %q", tt.caller, tt.rule, got, tt.want)
		}
	}
}

func TestExpiryFromText(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	tests := []struct {
		q, a, want string
	}{
		{"", "Pinned until 2026-12-10.", "2026-12-10"},
		{"Who covers the pager until December 12, 2026?", "", "2026-12-12"},
		{"", "The freeze lasts until 3 January.", "2027-01-03"},
		{"", "Valid through March 3 2027, or until 2027-01-05, whichever comes first.", "2027-01-05"},
		{"", "Decided on 2026-12-20 at the planning meeting.", ""},
		{"", "The old cluster ran until 2025-06-30.", ""},
		{"", "Until 31 February 2027 nothing changes.", ""},
	}
	for _, tc := range tests {
		got, ok := Expiry(tc.q, tc.a, now)
		s := ""
		if ok {
			s = got.Format(time.DateOnly)
		}
		if s != tc.want {
			t.Errorf("Expiry(%q, %q) = %q, want %q", tc.q, tc.a, s, tc.want)
		}
	}
}
