package mcp

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongQuestionNotEchoed: an insufficient answer quotes the start of
// the question and its length, not 100 KB of it.
func TestLongQuestionNotEchoed(t *testing.T) {
	s := newSpace(t)
	cs := connect(t, s, "test-agent")
	q := strings.Repeat("zyxwv qwertz ", 100_000/13)
	res := call(t, cs, ToolQuery, map[string]any{"question": q})
	msg := textOf(res)
	if res.IsError || !strings.HasPrefix(msg, "insufficient") {
		t.Fatalf("want an insufficient answer, got %.200q", msg)
	}
	if len(msg) > 1000 || !strings.Contains(msg, fmt.Sprintf("(%d characters)", len(q))) {
		t.Errorf("the answer is %d bytes: %.300q", len(msg), msg)
	}
}
