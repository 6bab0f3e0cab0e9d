// Package web is pt's local web view: a read-only site, rendered on the
// server, where a person browses, searches and audits a space. Beside
// what a git host shows, each page carries what makes it trustworthy: the
// batch that wrote it and who approved it, whether its sources and
// citations still match the revisions it pinned, its lint findings, its
// lifecycle. The batch log with each batch's diff, every page's history,
// the open findings and what agents filed recently have views of their own.
//
// URLs mirror the space: / is the hub, /<path> any page (?history,
// ?at=COMMIT, ?diff=COMMIT, ?source are its history, an old revision, what
// one commit changed and its raw text), /search?q=, /log, /batch/<id>,
// /findings and /agents.
//
// Nothing a page holds runs in the browser: Markdown goes through
// content.RenderHTML (goldmark's safe mode and a sanitising policy), every
// other value through html/template, and each response forbids script
// outright in its Content-Security-Policy. The site sends no JavaScript.
// It reads through the same functions as the CLI and MCP (wiki, lint,
// retrieve.Query, ingest.ReadConsultLog) and writes nothing.
//
// It sits under mcp because pt serve runs it beside the MCP endpoint, with
// the same Host and Origin checks and the same tokens. Like mcp it must
// not import cmd, go-git, goldmark or bluge, nor the MCP SDK.
package web
