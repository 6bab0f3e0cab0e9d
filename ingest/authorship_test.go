package ingest

import (
	"testing"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Text pt or a model composed is an agent's, whoever ran the consult; a
// caller's own answer is the caller's.
func TestSynthesisAuthor(t *testing.T) {
	dana := wiki.Author{Name: "dana", Email: "dana@example.com", Kind: content.AuthorHuman}
	for _, tc := range []struct {
		by, model string
		want      content.Author
	}{
		{AnswerByExtraction, "", content.Author{Kind: content.AuthorAgent, Name: "pt"}},
		{AnswerByModel, "qwen3", content.Author{Kind: content.AuthorAgent, Name: "qwen3"}},
		{AnswerByCaller, "", content.Author{Kind: content.AuthorHuman, Name: "dana"}},
	} {
		if got := pageAuthor(dana, tc.by, tc.model); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.by, got, tc.want)
		}
	}
}
