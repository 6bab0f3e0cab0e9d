package ingest_test

import (
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
)

// Text pt or a model composed is an agent's, whoever ran the consult; a
// caller's own answer is the caller's.
func TestSynthesisAuthor(t *testing.T) {
	for _, tc := range []struct {
		by, model string
		want      content.Author
	}{
		{ingest.AnswerByExtraction, "", content.Author{Kind: content.AuthorAgent, Name: "pt"}},
		{ingest.AnswerByModel, "qwen3", content.Author{Kind: content.AuthorAgent, Name: "qwen3"}},
		{ingest.AnswerByCaller, "", content.Author{Kind: content.AuthorHuman, Name: "dana"}},
	} {
		if got := ingest.PageAuthor(dana, tc.by, tc.model); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.by, got, tc.want)
		}
	}
}
