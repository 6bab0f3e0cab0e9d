// Package model is the client of an optional OpenAI-compatible chat model
// that composes a consult's answer from retrieved excerpts. pt never
// depends on it: every failure wraps ErrModel and the consult falls back
// to an extractive answer.
//
// It imports retrieve (for its hits) and nothing else of pt; it reads no
// environment itself (FromEnv takes a getenv).
package model
