package ingest

import "github.com/ptwiki/pt/ingest/internal/model"

// Model is an optional OpenAI-compatible chat endpoint that composes a
// consult's answer from the retrieved excerpts (ConsultInput.Model); see
// ModelFromEnv.
type Model = model.Client

// ModelFromEnv returns the model named by PT_LLM_URL (with PT_LLM_MODEL,
// PT_LLM_KEY and PT_LLM_TIMEOUT) as getenv reads them, or nil when
// PT_LLM_URL is unset.
func ModelFromEnv(getenv func(string) string) *Model { return model.FromEnv(getenv) }
