package ingest

import "testing"

func TestDemoteHeadings(t *testing.T) {
	in := "## Context\n\nText with #hashtag.\n    # indented code\n#NoSpace\n### Deep ###"
	want := "**Context**\n\nText with #hashtag.\n    # indented code\n#NoSpace\n**Deep**"
	if got := demoteHeadings(in); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
