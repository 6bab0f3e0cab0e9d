package ingest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ptwiki/pt/ingest"
)

// Bad transcripts are refused with errBadTranscript before anything is
// read into the space, and leave no proposal behind.
func TestCaptureBadTranscripts(t *testing.T) {
	s, dir := newSpace(t, "")
	for name, data := range map[string][]byte{
		"huge":      bytes.Repeat([]byte("x"), ingest.MaxTranscriptBytes+1),
		"empty":     []byte(" \n\t\n"),
		"binary":    []byte("{\"a\":1}\n\x00\x01"),
		"not jsonl": []byte("{\"type\":\"user\"}\n{broken\n"),
	} {
		_, err := ingest.Capture(context.Background(), s, data, ingest.CaptureOptions{Name: name})
		if err == nil || !strings.Contains(err.Error(), "bad transcript") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if out := git(t, dir, "for-each-ref", "refs/heads/pt/"); out != "" {
		t.Errorf("a refused transcript left a proposal: %s", out)
	}
}

// Lessons are found once each, in the order the session said them, and
// the proposal's source lists the kept ones.
func TestCaptureLessons(t *testing.T) {
	s, _ := newSpace(t, "")
	text := "Intro.\n- Lesson: Spokes are generated, never edited by hand.\n[[REMEMBER: Batches are single commits.]]\nLesson: Spokes are generated, never edited by hand.\nTIL: ok\n"
	res, err := ingest.Capture(context.Background(), s, []byte(text), ingest.CaptureOptions{Name: "out.txt"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range res.Lessons {
		got = append(got, l.Marker+": "+l.Text)
	}
	want := []string{"remember: Batches are single commits.", "lesson: Spokes are generated, never edited by hand.", "lesson: ok"}
	if strings.Join(got, "|") != strings.Join(want, "|") || res.Format != "text" || res.Result == nil || res.Proposal == "" {
		t.Errorf("lessons %q (format %s, result %+v), want %q", got, res.Format, res.Result, want)
	}
}
