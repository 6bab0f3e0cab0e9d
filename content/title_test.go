package content

import "testing"

func TestFirstH1(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"# ADR-0007: Use NATS JetStream instead of Kafka\n\nText.", "ADR-0007: Use NATS JetStream instead of Kafka"},
		{"Intro line.\n\n## Context\n\n# The `queue` *decision*\n", "The queue decision"},
		{"Title\n=====\n\nSetext.", "Title"},
		{"## Only a section\n\ntext", ""},
		{"```\n# not a heading\n```\n", ""},
		{"", ""},
	} {
		if got := FirstH1([]byte(tc.body)); got != tc.want {
			t.Errorf("FirstH1(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
