// Package summary is pt's extractive summarizer: from a source's Markdown
// (read through content, pt's one Markdown dialect) it takes the sentences
// a reader of that kind of source needs first, the decisions, the action
// items, key points and an outline. Every line is the source's own, so a
// summary page is reproducible byte for byte without a model.
//
// It is pure: no git, no disk, no clock. It imports content and nothing
// else of pt.
package summary
