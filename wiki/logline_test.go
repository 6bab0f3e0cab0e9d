package wiki

import (
	"testing"
	"time"
)

func TestLogLineSaysWhoStandsBehind(t *testing.T) {
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	cases := []struct {
		c    Commit
		want string
	}{
		{Commit{Hash: "0123456789abcdef", When: when, Subject: "ingest: x", Author: "dana", Batch: &Trailers{BatchID: "b-20261129-7f3a00", ApprovedBy: "dana", AgentName: "claude-code"}},
			"0123456789ab  2026-11-29 18:00  b-20261129-7f3a00  ingest: x  (approved by dana, agent claude-code)"},
		{Commit{Hash: "0123456789abcdef", When: when, Subject: "file-back: y", Author: "bot", Batch: &Trailers{BatchID: "b-20261129-7f3a01", AgentName: "writer-bot"}},
			"0123456789ab  2026-11-29 18:00  b-20261129-7f3a01  file-back: y  (agent writer-bot)"},
		{Commit{Hash: "0123456789abcdef", When: when, Subject: "hand edit", Author: "mei"},
			"0123456789ab  2026-11-29 18:00  (plain commit)     hand edit  (by mei)"},
	}
	for _, c := range cases {
		if got := c.c.LogLine(); got != c.want {
			t.Errorf("LogLine() =\n%q, want\n%q", got, c.want)
		}
	}
}
